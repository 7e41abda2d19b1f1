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
package io.jfabric.ofi.ctx;

/**
 * The ofi provider's own per-operation flags, kept in a slot ({@link SlotPool#flags}). Stateless.
 */
public final class OpFlags
{
    /** The application asked for no completion (selective completion without FI_COMPLETION): a success is not
     * reported, the slot is only freed; an error is reported. */
    public static final int SILENT = 1;
    /** FI_MULTI_RECV: completions come until one carries FI_MULTI_RECV; only that one frees the slot. */
    public static final int MULTI_RECV = 2;

    private OpFlags()
    {
    }
}
