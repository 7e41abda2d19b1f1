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
 * JCStress tests of races between processes: two mappings of one region, as two processes see it (slots, lanes, key
 * tables, AV entries, the publication of a scalable endpoint and of its receive contexts, and 8- and 16-bit atomics
 * on one 32-bit word).
 */
package io.jfabric.stress.process;
