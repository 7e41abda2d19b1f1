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
 * The foundation every other package stands on (with {@code config}, the settings): what the provider supports
 * ({@link io.jfabric.shm.core.ShmCapabilities}), process identities, object lifecycle and reference counts
 * ({@link io.jfabric.shm.core.FidLifecycle}), a domain's count limits and the switches that build deliberately
 * broken variants for the stress tests, and the lock-free hand-off of operation indices between a context's sending
 * side and its progress ({@link io.jfabric.shm.core.OpHandoff}). It imports nothing else of the provider.
 */
package io.jfabric.shm.core;
