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
 * The shm provider's settings ({@link io.jfabric.shm.config.ShmConfig}): every size, limit and the root directory,
 * read from system properties and environment variables, or given to
 * {@link io.jfabric.shm.ShmProvider#ShmProvider(ShmConfig)} by a program that embeds the provider. Exported: the
 * one configuration type a user writes; it imports nothing else of the provider, and every other package reads it.
 */
package io.jfabric.shm.config;
