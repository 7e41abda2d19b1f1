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
 * JCStress tests of the single-producer, single-consumer lane ({@code io.jfabric.shm.lane.SpscLane}) on its own:
 * the producer in one mapping of a file, the consumer in a second mapping of it at another address, as two
 * processes have them; two actors each. Each test names the broken variant of the lane it catches.
 */
package io.jfabric.stress.lane;
