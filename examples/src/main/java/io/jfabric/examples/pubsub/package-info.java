/*
 * Copyright 2026 the jfabric authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
/**
 * Publish/subscribe between processes, on one host over a named shm domain or across hosts over tcp: {@link
 * io.jfabric.examples.pubsub.Publisher} sends numbered messages to every subscriber it knows,
 * {@link io.jfabric.examples.pubsub.Subscriber} announces itself to the publisher's well-known address and checks
 * that what it receives arrives intact and in order. Either side may restart; they find each other again.
 * {@link io.jfabric.examples.pubsub.PubSub} holds what both sides agree on: the getinfo hints, the well-known
 * address and the message layout.
 */
package io.jfabric.examples.pubsub;
