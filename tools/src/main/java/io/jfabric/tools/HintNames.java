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
package io.jfabric.tools;

import io.jfabric.AddrFormat;
import io.jfabric.EpType;
import io.jfabric.Flags;
import io.jfabric.Mode;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The names {@code fi_info} accepts for its hints, and how it reads them: {@code -c}/{@code -m} take names joined
 * by '|' (empty names are skipped, nothing is trimmed), {@code -t}/{@code -a} one name; case does not matter.
 * <p>
 * The vocabulary is fi_info's own, learnt from libfabric 1.17's {@code fi_info}: it is narrower than what
 * {@code fi_tostr} prints (no FI_VARIABLE_MSG, FI_RMA_PMEM or FI_BUFFERED_RECV; FI_ADDR_IB_UD, FI_ADDR_PSMX3,
 * FI_ADDR_OPX and FI_ADDR_CXI are not accepted) and adds FI_MORE and FI_PEEK to the capabilities.
 * Immutable; any thread.
 */
final class HintNames
{
    /** What a name list could not be read as, with fi_info's wording. */
    static final class UnrecognizedNameException extends Exception
    {
        private static final long serialVersionUID = 1L;

        UnrecognizedNameException(final String what, final String name)
        {
            super("Unrecognized " + what + ": " + name);
        }
    }

    private static final Map<String, Long> CAPS = new LinkedHashMap<>();
    private static final Map<String, Long> MODES = new LinkedHashMap<>();

    static
    {
        CAPS.put("FI_MSG", Flags.FI_MSG);
        CAPS.put("FI_RMA", Flags.FI_RMA);
        CAPS.put("FI_TAGGED", Flags.FI_TAGGED);
        CAPS.put("FI_ATOMIC", Flags.FI_ATOMIC);
        CAPS.put("FI_MULTICAST", Flags.FI_MULTICAST);
        CAPS.put("FI_COLLECTIVE", Flags.FI_COLLECTIVE);
        CAPS.put("FI_READ", Flags.FI_READ);
        CAPS.put("FI_WRITE", Flags.FI_WRITE);
        CAPS.put("FI_RECV", Flags.FI_RECV);
        CAPS.put("FI_SEND", Flags.FI_SEND);
        CAPS.put("FI_REMOTE_READ", Flags.FI_REMOTE_READ);
        CAPS.put("FI_REMOTE_WRITE", Flags.FI_REMOTE_WRITE);
        CAPS.put("FI_MULTI_RECV", Flags.FI_MULTI_RECV);
        CAPS.put("FI_REMOTE_CQ_DATA", Flags.FI_REMOTE_CQ_DATA);
        CAPS.put("FI_MORE", Flags.FI_MORE);
        CAPS.put("FI_PEEK", Flags.FI_PEEK);
        CAPS.put("FI_TRIGGER", Flags.FI_TRIGGER);
        CAPS.put("FI_FENCE", Flags.FI_FENCE);
        CAPS.put("FI_HMEM", Flags.FI_HMEM);
        CAPS.put("FI_SOURCE_ERR", Flags.FI_SOURCE_ERR);
        CAPS.put("FI_LOCAL_COMM", Flags.FI_LOCAL_COMM);
        CAPS.put("FI_REMOTE_COMM", Flags.FI_REMOTE_COMM);
        CAPS.put("FI_SHARED_AV", Flags.FI_SHARED_AV);
        CAPS.put("FI_RMA_EVENT", Flags.FI_RMA_EVENT);
        CAPS.put("FI_SOURCE", Flags.FI_SOURCE);
        CAPS.put("FI_NAMED_RX_CTX", Flags.FI_NAMED_RX_CTX);
        CAPS.put("FI_DIRECTED_RECV", Flags.FI_DIRECTED_RECV);

        MODES.put("FI_CONTEXT", Mode.FI_CONTEXT);
        MODES.put("FI_MSG_PREFIX", Mode.FI_MSG_PREFIX);
        MODES.put("FI_ASYNC_IOV", Mode.FI_ASYNC_IOV);
        MODES.put("FI_RX_CQ_DATA", Mode.FI_RX_CQ_DATA);
        MODES.put("FI_LOCAL_MR", Mode.FI_LOCAL_MR);
        MODES.put("FI_NOTIFY_FLAGS_ONLY", Mode.FI_NOTIFY_FLAGS_ONLY);
        MODES.put("FI_RESTRICTED_COMP", Mode.FI_RESTRICTED_COMP);
        MODES.put("FI_CONTEXT2", Mode.FI_CONTEXT2);
    }

    private HintNames()
    {
    }

    /**
     * @param list such as {@code "FI_MSG|FI_TAGGED"}.
     * @return the capability bits.
     * @throws UnrecognizedNameException for a name fi_info does not accept.
     */
    static long caps(final String list) throws UnrecognizedNameException
    {
        return bits(list, CAPS, "capability");
    }

    /**
     * @param list such as {@code "FI_CONTEXT|FI_CONTEXT2"}.
     * @return the mode bits.
     * @throws UnrecognizedNameException for a name fi_info does not accept.
     */
    static long modes(final String list) throws UnrecognizedNameException
    {
        return bits(list, MODES, "mode");
    }

    /**
     * @param name such as {@code "FI_EP_RDM"}.
     * @return the endpoint type.
     * @throws UnrecognizedNameException for a name fi_info does not accept.
     */
    static EpType epType(final String name) throws UnrecognizedNameException
    {
        for (final EpType type : EpType.values())
        {
            if (type.cName().equalsIgnoreCase(name))
            {
                return type;
            }
        }
        throw new UnrecognizedNameException("endpoint type", name);
    }

    /**
     * @param name such as {@code "FI_ADDR_STR"} or {@code "FI_FORMAT_UNSPEC"}.
     * @return the address format.
     * @throws UnrecognizedNameException for a name fi_info does not accept.
     */
    static AddrFormat addrFormat(final String name) throws UnrecognizedNameException
    {
        for (final AddrFormat format : AddrFormat.values())
        {
            if (format.value() <= AddrFormat.ADDR_EFA.value() && format != AddrFormat.ADDR_IB_UD &&
                format.cName().equalsIgnoreCase(name))
            {
                return format;
            }
        }
        throw new UnrecognizedNameException("address format", name);
    }

    private static long bits(final String list, final Map<String, Long> names, final String what)
        throws UnrecognizedNameException
    {
        long bits = 0;
        for (final String name : list.split("\\|"))
        {
            if (name.isEmpty())
            {
                continue;
            }
            final Long bit = names.get(name.toUpperCase(Locale.ROOT));
            if (bit == null)
            {
                throw new UnrecognizedNameException(what, name);
            }
            bits |= bit;
        }
        return bits;
    }
}
