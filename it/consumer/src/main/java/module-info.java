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
 * The consumer as a named module: it needs only the API. The shm provider is bound by the module system's service
 * binding (io.jfabric.api {@code uses} FabricProvider; the provider's jar provides it) when run on the module path.
 */
module io.jfabric.it.consumer
{
    requires io.jfabric.api;
}
