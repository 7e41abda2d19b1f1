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
 * A monitoring tool as a named module: it compiles against the shm provider's exported monitoring package
 * ({@code io.jfabric.shm.stat}) and nothing else of it. Compiled and run by it/run-consumer.sh with plain javac and
 * java on the module path, against the jars installed into its private repository.
 */
module io.jfabric.it.monitor
{
    requires io.jfabric.shm;
}
