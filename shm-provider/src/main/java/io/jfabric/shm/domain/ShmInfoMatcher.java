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
package io.jfabric.shm.domain;

import io.jfabric.AddrFormat;
import io.jfabric.Addresses;
import io.jfabric.AvType;
import io.jfabric.Domain;
import io.jfabric.DomainAttr;
import io.jfabric.EpAttr;
import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricAttr;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MrMode;
import io.jfabric.Progress;
import io.jfabric.Protocol;
import io.jfabric.ResourceMgmt;
import io.jfabric.RxAttr;
import io.jfabric.Threading;
import io.jfabric.ToStr;
import io.jfabric.TxAttr;
import io.jfabric.Versions;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.context.ProviderContext;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.core.ShmNames;
import io.jfabric.shm.rma.RmaOrdering;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The shm provider's {@code fi_getinfo}: checks hints against what the provider can do and builds the matching
 * infos, following fi_getinfo(3) and fi_domain(3).
 * <ul>
 *   <li>A hint set to a non-zero value must be supported or nothing matches; zero is a wildcard (mode bits
 *       excepted: the provider needs no mode, so any mode hint matches).</li>
 *   <li>Capabilities: FI_LOCAL_COMM is offered, FI_REMOTE_COMM never; FI_RMA and its modifiers are (tx_attr
 *       rma_iov_limit {@link io.jfabric.shm.core.ShmCapabilities#RMA_IOV_LIMIT}), and FI_RMA_EVENT. When the
 *       hints give caps the output holds
 *       exactly those plus FI_LOCAL_COMM (fi_getinfo(3): asked for neither locality, the provider indicates its
 *       configuration); otherwise every capability the provider has. Tx/rx caps may name modifiers the info's
 *       caps imply (a primary capability without modifiers implies them all).</li>
 *   <li>Threading UNSPEC gives FI_THREAD_SAFE, the model with the greatest parallelism; every concrete model is
 *       honoured as asked. Data progress UNSPEC gives two infos, MANUAL then AUTO; a concrete model is honoured.
 *       Resource management UNSPEC gives ENABLED; DISABLED is honoured. AV type UNSPEC gives TABLE.</li>
 *   <li>Output mr_mode is a subset of the input: only the bits in {@link ShmCapabilities#MR_MODE_KEPT}
 *       survive; the legacy FI_MR_BASIC and FI_MR_SCALABLE values are returned as given.</li>
 *   <li>Counts and sizes are the provider's limits from {@link ShmConfig}; a hint above a limit matches
 *       nothing.</li>
 *   <li>A domain name in the hints must be a valid region name ({@link RegionFile#validateDomainName}); the named region is
 *       created when the domain is opened. A fabric name other than "shm", an endpoint type other than RDM, an
 *       address format other than FI_ADDR_STR, or a node that is not this host match nothing.</li>
 *   <li>Open instances (fi_domain(3), fi_fabric(3)). On input, {@code domain_attr.domain} set to an open domain of
 *       this provider restricts the output to that domain: one info whose domain attributes are the domain's own
 *       (name, threading, progress, resource management, AV type, mr_mode, counts, caps, auth key), and whose
 *       fabric is the domain's; a hint contradicting the domain (another name, another model, a count above the
 *       domain's, caps or mr_mode it lacks) matches nothing. {@code fabric_attr.fabric} set to an open fabric of
 *       this provider restricts the output to that fabric (its api_version; a domain hint must have been opened
 *       from it). A closed object, or one of another provider, matches nothing. On output, {@code domain_attr.domain}
 *       references the first opened domain of the info's name still open (of the given fabric, when one is
 *       given), and {@code fabric_attr.fabric} the given fabric, else that domain's fabric, else the first opened
 *       fabric still open; null when there is none.</li>
 * </ul>
 * Thread safe: it holds the immutable configuration and reads the provider's lists of open objects.
 */
final class ShmInfoMatcher
{
    /** Version of the shm wire protocol (ring record layouts) this provider speaks. */
    static final int PROTOCOL_VERSION = 1;

    private final ShmConfig config;
    private final ProviderContext provider;
    /** ep_attr.max_order_raw_size, war and waw: see {@link RmaOrdering}. */
    private final long orderSize;

    ShmInfoMatcher(final ShmConfig config, final ProviderContext provider)
    {
        this.config = config;
        this.provider = provider;
        this.orderSize = RmaOrdering.dataOrderSize(RegionGeometry.from(config));
    }

    /**
     * @return the provider's version: FI_VERSION(0, 1).
     */
    static int providerVersion()
    {
        return Versions.version(0, 1);
    }

    /**
     * The infos that satisfy the hints.
     *
     * @throws FabricException {@link Errno#FI_ENODATA} with the reason when nothing matches.
     */
    List<Info> match(final int version, final String node, final String service, final long flags, final Info hints)
    {
        if ((flags & Flags.FI_PROV_ATTR_ONLY) != 0)
        {
            // fi_getinfo(3): default values for every member but the provider's name and version.
            final Info info = new Info();
            info.fabricAttr().provName(ShmNames.PROVIDER).provVersion(providerVersion())
                .apiVersion(Math.min(version, Versions.FI_CURRENT_VERSION));
            return List.of(info);
        }
        checkNode(node, service);
        final Info h = withoutIgnoredKeys(version, hints != null ? hints : new Info());
        checkFabric(h.fabricAttr());
        checkTopLevel(h);
        checkEndpoint(h.epAttr());
        // fi_getinfo(3): with neither FI_LOCAL_COMM nor FI_REMOTE_COMM asked for, the provider indicates its
        // configuration, so FI_LOCAL_COMM is the one bit added to the caps the hints give.
        final long caps = h.caps() != 0 ? h.caps() | Flags.FI_LOCAL_COMM : ShmCapabilities.DEFAULT_CAPS;
        checkTx(h.txAttr(), h.caps());
        checkRx(h.rxAttr(), h.caps());
        final DomainAttr hd = h.domainAttr() != null ? h.domainAttr() : new DomainAttr();
        checkDomain(hd);
        final ShmFabric fabric = openFabric(h.fabricAttr());
        final ShmDomain domain = openDomain(hd, fabric);

        final List<Info> result = new ArrayList<>(2);
        if (domain != null)
        {
            result.add(restrict(build(version, caps, h, hd, domain.attr().dataProgress()), domain));
        }
        else if (hd.dataProgress() == Progress.UNSPEC)
        {
            result.add(reference(build(version, caps, h, hd, Progress.MANUAL), fabric));
            result.add(reference(build(version, caps, h, hd, Progress.AUTO), fabric));
        }
        else
        {
            result.add(reference(build(version, caps, h, hd, hd.dataProgress()), fabric));
        }
        return result;
    }

    /**
     * @return the open fabric {@code fabric_attr.fabric} names, or null when the hints name none.
     * @throws FabricException {@link Errno#FI_ENODATA} for a closed fabric or one of another provider.
     */
    private ShmFabric openFabric(final FabricAttr hints)
    {
        final Fabric given = hints != null ? hints.fabric() : null;
        if (given == null)
        {
            return null;
        }
        if (!(given instanceof ShmFabric) || ((ShmFabric)given).provider() != provider)
        {
            noMatch("fabric_attr.fabric is not a fabric of this shm provider (" + given.getClass().getName() + ")");
        }
        final ShmFabric fabric = (ShmFabric)given;
        if (fabric.isClosed())
        {
            noMatch("fabric_attr.fabric is closed; getinfo restricts output only to an open fabric");
        }
        return fabric;
    }

    /**
     * @return the open domain {@code domain_attr.domain} names, or null when the hints name none.
     * @throws FabricException {@link Errno#FI_ENODATA} for a closed domain, one of another provider or fabric, or
     *                         hints that contradict the domain's attributes.
     */
    private ShmDomain openDomain(final DomainAttr hd, final ShmFabric fabric)
    {
        final Domain given = hd.domain();
        if (given == null)
        {
            return null;
        }
        if (!(given instanceof ShmDomain) || ((ShmFabric)given.fabric()).provider() != provider)
        {
            noMatch("domain_attr.domain is not a domain of this shm provider (" + given.getClass().getName() + ")");
        }
        final ShmDomain domain = (ShmDomain)given;
        if (domain.isClosed())
        {
            noMatch("domain_attr.domain is closed; getinfo restricts output only to an open domain");
        }
        if (fabric != null && domain.fabric() != fabric)
        {
            noMatch("domain_attr.domain '" + domain.name() +
                "' was opened from another fabric than fabric_attr.fabric");
        }
        checkAgainst(hd, domain.attr());
        return domain;
    }

    /** The hints must not contradict the open domain's attributes {@code d}. */
    private static void checkAgainst(final DomainAttr hd, final DomainAttr d)
    {
        final String of = " of the open domain '" + d.name() + "'";
        if (hd.name() != null && !hd.name().equals(d.name()))
        {
            noMatch("domain_attr.name '" + hd.name() + "' is not the name" + of + " given in domain_attr.domain");
        }
        same("threading", hd.threading() != Threading.UNSPEC && hd.threading() != d.threading(),
            hd.threading().cName(), d.threading().cName(), of);
        same("control_progress", hd.controlProgress() != Progress.UNSPEC && hd.controlProgress() != d.controlProgress(),
            hd.controlProgress().cName(), d.controlProgress().cName(), of);
        same("data_progress", hd.dataProgress() != Progress.UNSPEC && hd.dataProgress() != d.dataProgress(),
            hd.dataProgress().cName(), d.dataProgress().cName(), of);
        same("resource_mgmt", hd.resourceMgmt() != ResourceMgmt.UNSPEC && hd.resourceMgmt() != d.resourceMgmt(),
            hd.resourceMgmt().cName(), d.resourceMgmt().cName(), of);
        same("av_type", hd.avType() != AvType.UNSPEC && hd.avType() != d.avType(),
            hd.avType().cName(), d.avType().cName(), of);
        if ((hd.caps() & ~d.caps()) != 0)
        {
            noMatch("domain_attr.caps ask for " + ToStr.caps(hd.caps() & ~d.caps()) + ", which the caps" + of +
                " (" + ToStr.caps(d.caps()) + ") lack");
        }
        if (hd.mrMode() != 0 && (d.mrMode() & ~ShmCapabilities.domainMrMode(hd.mrMode())) != 0)
        {
            noMatch("domain_attr.mr_mode 0x" + Integer.toHexString(hd.mrMode()) + " lacks bits 0x" +
                Integer.toHexString(d.mrMode() & ~ShmCapabilities.domainMrMode(hd.mrMode())) + " of the mr_mode" + of);
        }
        aboveDomain("cq_cnt", hd.cqCnt(), d.cqCnt(), of);
        aboveDomain("ep_cnt", hd.epCnt(), d.epCnt(), of);
        aboveDomain("tx_ctx_cnt", hd.txCtxCnt(), d.txCtxCnt(), of);
        aboveDomain("rx_ctx_cnt", hd.rxCtxCnt(), d.rxCtxCnt(), of);
        aboveDomain("cntr_cnt", hd.cntrCnt(), d.cntrCnt(), of);
        aboveDomain("mr_cnt", hd.mrCnt(), d.mrCnt(), of);
        aboveDomain("mr_iov_limit", hd.mrIovLimit(), d.mrIovLimit(), of);
        if (hd.authKey() != null && !Arrays.equals(hd.authKey(), d.authKey()))
        {
            noMatch("domain_attr.auth_key is not the auth_key" + of);
        }
    }

    private static void same(
        final String what, final boolean differs, final String hint, final String domain, final String of)
    {
        if (differs)
        {
            noMatch("domain_attr." + what + " " + hint + " is not the " + what + of + " (" + domain + ")");
        }
    }

    /**
     * fi_domain(3), fi_endpoint(3): below API version 1.5 the authorization key fields are ignored, so the hints'
     * keys neither restrict the match nor come back in the output.
     */
    private static Info withoutIgnoredKeys(final int version, final Info hints)
    {
        if (!ShmCapabilities.keysIgnored(version))
        {
            return hints;
        }
        final Info copy = hints.copy();
        if (copy.domainAttr() != null)
        {
            copy.domainAttr().authKey(null).authKeySize(0);
        }
        if (copy.epAttr() != null)
        {
            copy.epAttr().authKey(null);
        }
        return copy;
    }

    private static void aboveDomain(final String what, final long requested, final long limit, final String of)
    {
        if (Long.compareUnsigned(requested, limit) > 0)
        {
            noMatch("domain_attr." + what + " " + Long.toUnsignedString(requested) + " is above the limit " + limit +
                of);
        }
    }

    /** The info restricted to the open domain: its attributes, and references to it and its fabric. */
    private static Info restrict(final Info info, final ShmDomain domain)
    {
        final ShmFabric fabric = (ShmFabric)domain.fabric();
        info.domainAttr(domain.attr());
        info.fabricAttr().fabric(fabric).apiVersion(fabric.apiVersion());
        return info;
    }

    /**
     * The output references to open instances: the first opened domain of the info's name (of {@code fabric} when
     * the hints gave one), and {@code fabric}, else that domain's fabric, else the first opened fabric.
     */
    private Info reference(final Info info, final ShmFabric fabric)
    {
        final ShmDomain domain = (ShmDomain)provider.firstOpenDomain(info.domainAttr().name(), fabric);
        info.domainAttr().domain(domain);
        final ShmFabric referenced = fabric != null ? fabric :
            domain != null ? (ShmFabric)domain.fabric() : (ShmFabric)provider.firstOpenFabric();
        info.fabricAttr().fabric(referenced);
        if (fabric != null)
        {
            info.fabricAttr().apiVersion(fabric.apiVersion());
        }
        return info;
    }

    private Info build(
        final int version, final long caps, final Info h, final DomainAttr hd, final Progress dataProgress)
    {
        final Info info = new Info();
        info.caps(caps).mode(0).addrFormat(AddrFormat.ADDR_STR);

        final TxAttr htx = h.txAttr() != null ? h.txAttr() : new TxAttr();
        info.txAttr()
            .caps(htx.caps() != 0 ? htx.caps() : caps & ShmCapabilities.TX_CAPS)
            .mode(0)
            .opFlags(htx.opFlags())
            .msgOrder(ShmCapabilities.MSG_ORDER)
            .compOrder(0)
            .injectSize(config.injectSize())
            .size(config.txSize())
            .iovLimit(ShmCapabilities.IOV_LIMIT)
            .rmaIovLimit(ShmCapabilities.RMA_IOV_LIMIT)
            .tclass(htx.tclass());

        final RxAttr hrx = h.rxAttr() != null ? h.rxAttr() : new RxAttr();
        info.rxAttr()
            .caps(hrx.caps() != 0 ? hrx.caps() : caps & ShmCapabilities.RX_CAPS)
            .mode(0)
            .opFlags(hrx.opFlags())
            .msgOrder(ShmCapabilities.MSG_ORDER)
            .compOrder(0)
            .totalBufferedRecv(config.rxRingBytes())
            .size(config.rxSize())
            .iovLimit(ShmCapabilities.IOV_LIMIT);

        final EpAttr hep = h.epAttr() != null ? h.epAttr() : new EpAttr();
        info.epAttr()
            .type(EpType.RDM)
            .protocol(Protocol.SHM)
            .protocolVersion(PROTOCOL_VERSION)
            .maxMsgSize(config.maxMsgSize())
            .msgPrefixSize(0)
            .maxOrderRawSize(orderSize)
            .maxOrderWarSize(orderSize)
            .maxOrderWawSize(orderSize)
            .memTagFormat(hep.memTagFormat() != 0 ? hep.memTagFormat() : ShmCapabilities.MEM_TAG_FORMAT)
            .txCtxCnt(hep.txCtxCnt() != 0 ? hep.txCtxCnt() : 1)
            .rxCtxCnt(hep.rxCtxCnt() != 0 ? hep.rxCtxCnt() : 1)
            .authKey(hep.authKey() == null ? null : hep.authKey().clone());

        info.domainAttr()
            .name(hd.name() != null ? hd.name() : ShmNames.DEFAULT_DOMAIN)
            .threading(hd.threading() != Threading.UNSPEC ? hd.threading() : Threading.SAFE)
            .controlProgress(hd.controlProgress() != Progress.UNSPEC ? hd.controlProgress() : Progress.AUTO)
            .dataProgress(dataProgress)
            .resourceMgmt(hd.resourceMgmt() != ResourceMgmt.UNSPEC ? hd.resourceMgmt() : ResourceMgmt.ENABLED)
            .avType(hd.avType() != AvType.UNSPEC ? hd.avType() : AvType.TABLE)
            .mrMode(outputMrMode(hd.mrMode()))
            .mrKeySize(ShmCapabilities.MR_KEY_SIZE)
            .cqDataSize(ShmCapabilities.CQ_DATA_SIZE)
            .cqCnt(config.cqCount())
            .epCnt(config.epCount())
            .txCtxCnt(config.epCount())
            .rxCtxCnt(config.epCount())
            .maxEpTxCtx(ShmCapabilities.maxEpContexts(config.epCount()))
            .maxEpRxCtx(ShmCapabilities.maxEpContexts(config.epCount()))
            .maxEpStxCtx(config.epCount())
            .maxEpSrxCtx(ShmCapabilities.maxEpSrxContexts(config.epCount()))
            .cntrCnt(config.counterCount())
            .mrIovLimit(config.mrIovLimit())
            .caps(hd.caps() != 0 ? hd.caps() | Flags.FI_LOCAL_COMM : ShmCapabilities.DOMAIN_CAPS)
            .mode(0)
            .authKey(hd.authKey() == null ? null : hd.authKey().clone())
            .authKeySize(hd.authKeySize() == DomainAttr.FI_AV_AUTH_KEY ? DomainAttr.FI_AV_AUTH_KEY : 0)
            .maxErrData(config.maxErrData())
            .mrCnt(config.mrCount())
            .tclass(hd.tclass());

        info.fabricAttr()
            .name(ShmNames.FABRIC)
            .provName(ShmNames.PROVIDER)
            .provVersion(providerVersion())
            .apiVersion(Math.min(version, Versions.FI_CURRENT_VERSION));
        return info;
    }

    static int outputMrMode(final int requested)
    {
        if (requested == MrMode.FI_MR_BASIC || requested == MrMode.FI_MR_SCALABLE)
        {
            return requested;
        }
        return requested & ShmCapabilities.MR_MODE_KEPT;
    }

    private static void checkNode(final String node, final String service)
    {
        if (node == null)
        {
            return;
        }
        final int scheme = node.indexOf("://");
        String host = node;
        if (scheme >= 0)
        {
            if (service != null)
            {
                noMatch("node '" + node + "' is an FI_ADDR_STR address, so service must be null, not '" + service + "'");
            }
            host = node.substring(scheme + 3);
            final int end = indexOfAny(host, ":/?");
            host = end >= 0 ? host.substring(0, end) : host;
            if (host.isEmpty())
            {
                return;
            }
        }
        if (!LocalHost.isLocal(host))
        {
            noMatch("node '" + node + "' is not this host (" + LocalHost.name() +
                "); shm is FI_LOCAL_COMM only");
        }
    }

    private static int indexOfAny(final String s, final String chars)
    {
        for (int i = 0; i < s.length(); i++)
        {
            if (chars.indexOf(s.charAt(i)) >= 0)
            {
                return i;
            }
        }
        return -1;
    }

    private static void checkFabric(final FabricAttr fabric)
    {
        if (fabric == null)
        {
            return;
        }
        if (fabric.name() != null && !ShmNames.FABRIC.equals(fabric.name()))
        {
            noMatch("fabric name '" + fabric.name() + "' is unknown; shm offers fabric '" + ShmNames.FABRIC + "'");
        }
        if (fabric.provVersion() != 0 && fabric.provVersion() > providerVersion())
        {
            noMatch("prov_version " + Versions.major(fabric.provVersion()) + "." +
                Versions.minor(fabric.provVersion()) + " is newer than shm's " + Versions.major(providerVersion()) +
                "." + Versions.minor(providerVersion()));
        }
    }

    private static void checkTopLevel(final Info h)
    {
        capsOffered("caps", h.caps(), ShmCapabilities.INFO_CAPS, "");
        final long rxCaps = h.caps() | (h.rxAttr() != null ? h.rxAttr().caps() : 0);
        if ((rxCaps & Flags.FI_SOURCE_ERR) != 0 && (rxCaps & Flags.FI_SOURCE) == 0)
        {
            noMatch("FI_SOURCE_ERR must be paired with FI_SOURCE (fi_getinfo(3))");
        }
        if (h.addrFormat() != AddrFormat.UNSPEC && h.addrFormat() != AddrFormat.ADDR_STR)
        {
            noMatch("addr_format " + h.addrFormat().cName() + " is not supported; shm uses FI_ADDR_STR");
        }
    }

    private void checkEndpoint(final EpAttr ep)
    {
        if (ep == null)
        {
            return;
        }
        if (ep.type() != EpType.UNSPEC && ep.type() != EpType.RDM)
        {
            noMatch("endpoint type " + ep.type().cName() + " is not supported; shm offers FI_EP_RDM");
        }
        if (ep.protocol() != Protocol.UNSPEC && ep.protocol() != Protocol.SHM)
        {
            noMatch("protocol " + ep.protocol().cName() + " is not supported; shm speaks FI_PROTO_SHM");
        }
        above("ep_attr.protocol_version", Integer.toUnsignedLong(ep.protocolVersion()), PROTOCOL_VERSION);
        above("ep_attr.max_msg_size", ep.maxMsgSize(), config.maxMsgSize());
        if (ep.txCtxCnt() != Addresses.FI_SHARED_CONTEXT)
        {
            above("ep_attr.tx_ctx_cnt", ep.txCtxCnt(), ShmCapabilities.maxEpContexts(config.epCount()));
        }
        if (ep.rxCtxCnt() != Addresses.FI_SHARED_CONTEXT)
        {
            above("ep_attr.rx_ctx_cnt", ep.rxCtxCnt(), ShmCapabilities.maxEpContexts(config.epCount()));
        }
        above("ep_attr.max_order_raw_size", ep.maxOrderRawSize(), orderSize);
        above("ep_attr.max_order_war_size", ep.maxOrderWarSize(), orderSize);
        above("ep_attr.max_order_waw_size", ep.maxOrderWawSize(), orderSize);
        above("ep_attr.auth_key_size", ep.authKeySize(), ShmCapabilities.MAX_AUTH_KEY_SIZE);
    }

    private void checkTx(final TxAttr tx, final long infoCaps)
    {
        if (tx == null)
        {
            return;
        }
        capsWithin("tx_attr.caps", tx.caps(), ShmCapabilities.TX_CAPS, infoCaps);
        flagsWithin("tx_attr.op_flags", tx.opFlags(), ShmCapabilities.TX_OP_FLAGS);
        flagsWithin("tx_attr.msg_order", tx.msgOrder(), ShmCapabilities.MSG_ORDER);
        flagsWithin("tx_attr.comp_order", tx.compOrder(), 0);
        above("tx_attr.inject_size", tx.injectSize(), config.injectSize());
        above("tx_attr.size", tx.size(), config.txSize());
        above("tx_attr.iov_limit", tx.iovLimit(), ShmCapabilities.IOV_LIMIT);
        above("tx_attr.rma_iov_limit", tx.rmaIovLimit(), ShmCapabilities.RMA_IOV_LIMIT);
    }

    private void checkRx(final RxAttr rx, final long infoCaps)
    {
        if (rx == null)
        {
            return;
        }
        capsWithin("rx_attr.caps", rx.caps(), ShmCapabilities.RX_CAPS, infoCaps);
        flagsWithin("rx_attr.op_flags", rx.opFlags(), ShmCapabilities.RX_OP_FLAGS);
        flagsWithin("rx_attr.msg_order", rx.msgOrder(), ShmCapabilities.MSG_ORDER);
        flagsWithin("rx_attr.comp_order", rx.compOrder(), 0);
        above("rx_attr.total_buffered_recv", rx.totalBufferedRecv(), config.rxRingBytes());
        above("rx_attr.size", rx.size(), config.rxSize());
        above("rx_attr.iov_limit", rx.iovLimit(), ShmCapabilities.IOV_LIMIT);
    }

    private void checkDomain(final DomainAttr d)
    {
        if (d.name() != null)
        {
            try
            {
                RegionFile.validateDomainName(d.name());
            }
            catch (final FabricException ex)
            {
                noMatch(ex.reason());
            }
        }
        capsOffered("domain_attr.caps", d.caps(), ShmCapabilities.DOMAIN_CAPS, "");
        final int legacy = d.mrMode();
        if (legacy != MrMode.FI_MR_BASIC && legacy != MrMode.FI_MR_SCALABLE &&
            (legacy & (MrMode.FI_MR_BASIC | MrMode.FI_MR_SCALABLE)) != 0)
        {
            noMatch("domain_attr.mr_mode 0x" + Integer.toHexString(legacy) +
                " mixes the legacy FI_MR_BASIC/FI_MR_SCALABLE values with mode bits");
        }
        above("domain_attr.mr_key_size", d.mrKeySize(), ShmCapabilities.MR_KEY_SIZE);
        above("domain_attr.cq_data_size", d.cqDataSize(), ShmCapabilities.CQ_DATA_SIZE);
        above("domain_attr.cq_cnt", d.cqCnt(), config.cqCount());
        above("domain_attr.ep_cnt", d.epCnt(), config.epCount());
        above("domain_attr.tx_ctx_cnt", d.txCtxCnt(), config.epCount());
        above("domain_attr.rx_ctx_cnt", d.rxCtxCnt(), config.epCount());
        above("domain_attr.max_ep_tx_ctx", d.maxEpTxCtx(), ShmCapabilities.maxEpContexts(config.epCount()));
        above("domain_attr.max_ep_rx_ctx", d.maxEpRxCtx(), ShmCapabilities.maxEpContexts(config.epCount()));
        above("domain_attr.max_ep_stx_ctx", d.maxEpStxCtx(), config.epCount());
        above("domain_attr.max_ep_srx_ctx", d.maxEpSrxCtx(), ShmCapabilities.maxEpSrxContexts(config.epCount()));
        above("domain_attr.cntr_cnt", d.cntrCnt(), config.counterCount());
        above("domain_attr.mr_iov_limit", d.mrIovLimit(), config.mrIovLimit());
        if (d.authKeySize() != DomainAttr.FI_AV_AUTH_KEY) // Keys from the AV (fi_av_insert_auth_key) are supported.
        {
            above("domain_attr.auth_key_size", d.authKeySize(), ShmCapabilities.MAX_AUTH_KEY_SIZE);
        }
        above("domain_attr.max_err_data", d.maxErrData(), config.maxErrData());
        above("domain_attr.mr_cnt", d.mrCnt(), config.mrCount());
    }

    private static void capsWithin(final String what, final long caps, final long offered, final long infoCaps)
    {
        capsOffered(what, caps, offered, " there");
        // fi_getinfo(3): a primary capability given without modifiers implies all relevant modifiers.
        final long implied = (infoCaps & ShmCapabilities.MODIFIERS) == 0 ? ShmCapabilities.MODIFIERS : 0;
        if (infoCaps != 0 && (caps & ~(infoCaps | implied)) != 0)
        {
            noMatch(what + " " + ToStr.caps(caps & ~(infoCaps | implied)) + " are not among the info's caps " +
                ToStr.caps(infoCaps) + "; the hints contradict themselves");
        }
    }

    private static void capsOffered(final String what, final long caps, final long offered, final String where)
    {
        final long unsupported = caps & ~offered;
        if (unsupported != 0)
        {
            noMatch(what + " ask for " + ToStr.caps(unsupported) + ", which shm does not offer" + where +
                ((unsupported & Flags.FI_REMOTE_COMM) != 0 ? " (shm is FI_LOCAL_COMM only)" : ""));
        }
    }

    private static void flagsWithin(final String what, final long flags, final long offered)
    {
        if ((flags & ~offered) != 0)
        {
            noMatch(what + " 0x" + Long.toHexString(flags & ~offered) + " is not supported (shm offers 0x" +
                Long.toHexString(offered) + ")");
        }
    }

    private static void above(final String what, final long requested, final long limit)
    {
        if (Long.compareUnsigned(requested, limit) > 0)
        {
            noMatch(what + " " + Long.toUnsignedString(requested) + " is above shm's limit " + limit);
        }
    }

    private static void noMatch(final String reason)
    {
        throw new FabricException(Errno.FI_ENODATA, reason);
    }
}
