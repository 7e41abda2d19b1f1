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
package io.jfabric;

/**
 * libfabric message ordering bits (rdma/fabric.h) for {@code msg_order} and {@code comp_order}.
 */
public final class MsgOrder
{
    /** FI_ORDER_RAR: bit 0. */
    public static final long FI_ORDER_RAR = 1L << 0;
    /** FI_ORDER_RAW: bit 1. */
    public static final long FI_ORDER_RAW = 1L << 1;
    /** FI_ORDER_RAS: bit 2. */
    public static final long FI_ORDER_RAS = 1L << 2;
    /** FI_ORDER_WAR: bit 3. */
    public static final long FI_ORDER_WAR = 1L << 3;
    /** FI_ORDER_WAW: bit 4. */
    public static final long FI_ORDER_WAW = 1L << 4;
    /** FI_ORDER_WAS: bit 5. */
    public static final long FI_ORDER_WAS = 1L << 5;
    /** FI_ORDER_SAR: bit 6. */
    public static final long FI_ORDER_SAR = 1L << 6;
    /** FI_ORDER_SAW: bit 7. */
    public static final long FI_ORDER_SAW = 1L << 7;
    /** FI_ORDER_SAS: bit 8. */
    public static final long FI_ORDER_SAS = 1L << 8;
    /** FI_ORDER_RMA_RAR: bit 32. */
    public static final long FI_ORDER_RMA_RAR = 1L << 32;
    /** FI_ORDER_RMA_RAW: bit 33. */
    public static final long FI_ORDER_RMA_RAW = 1L << 33;
    /** FI_ORDER_RMA_WAR: bit 34. */
    public static final long FI_ORDER_RMA_WAR = 1L << 34;
    /** FI_ORDER_RMA_WAW: bit 35. */
    public static final long FI_ORDER_RMA_WAW = 1L << 35;
    /** FI_ORDER_ATOMIC_RAR: bit 36. */
    public static final long FI_ORDER_ATOMIC_RAR = 1L << 36;
    /** FI_ORDER_ATOMIC_RAW: bit 37. */
    public static final long FI_ORDER_ATOMIC_RAW = 1L << 37;
    /** FI_ORDER_ATOMIC_WAR: bit 38. */
    public static final long FI_ORDER_ATOMIC_WAR = 1L << 38;
    /** FI_ORDER_ATOMIC_WAW: bit 39. */
    public static final long FI_ORDER_ATOMIC_WAW = 1L << 39;
    /** FI_ORDER_DATA: bit 16. */
    public static final long FI_ORDER_DATA = 1L << 16;
    /** No ordering. */
    public static final long FI_ORDER_NONE = 0L;
    /** All of RAR, RAW, RAS, WAR, WAW, WAS, SAR, SAW and SAS. */
    public static final long FI_ORDER_STRICT = 0x1FFL;

    private MsgOrder()
    {
    }
}
