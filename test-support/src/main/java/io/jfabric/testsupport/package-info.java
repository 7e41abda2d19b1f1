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
 * What the modules' tests share (Aeron's aeron-test-support is the model): {@link io.jfabric.testsupport.ChildJvm}
 * runs a main class in a second, real JVM and reads its output, {@link io.jfabric.testsupport.JvmCommand} is the
 * start of such a command line for those that build their own, {@link io.jfabric.testsupport.PrivateRoot} is a
 * test's own shm root directory, and {@link io.jfabric.testsupport.OpenedObjects} closes what a test opened, the last
 * first. It depends on the JDK alone, so that every module's tests, shm-provider's included, may use it (test scope).
 */
package io.jfabric.testsupport;
