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
 * JCStress tests of the ofi provider's slot pools (the table that keeps posted operations' buffers and contexts until
 * their completion is read, shared by the posting thread and the CQ reader), each with the broken variant it
 * catches; SlotPoolStressTest runs them and their variants in the build.
 */
package io.jfabric.ofi.stress;
