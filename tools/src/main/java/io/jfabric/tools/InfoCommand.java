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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.FiType;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MrMode;
import io.jfabric.ToStr;
import io.jfabric.Versions;
import io.jfabric.spi.FabricProvider;
import io.jfabric.tools.cli.VersionProvider;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jfabric info}: libfabric's {@code fi_info} over jfabric's providers, with fi_info's options, output and
 * exit status: the short form per match by default, {@code "---"} and {@code fi_tostr(FI_TYPE_INFO)} per match
 * with {@code -v}, the providers and their versions with {@code -l}; 0 on success, the errno of a failed
 * {@code fi_getinfo} (61, FI_ENODATA, when nothing matches) with fi_info's {@code fi_getinfo: -61} line on
 * stderr followed by jfabric's reason in parentheses, 22 (FI_EINVAL) for a name it does not know, 1 for a usage error.
 * <p>
 * Hints are set up as fi_info sets them: every mode bit offered unless {@code -m} narrows them, every domain mode
 * offered, and every memory registration mode but the deprecated basic and scalable ones.
 * Runs on the command line's thread.
 */
@Command(
    name = "info",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 1,
    versionProvider = VersionProvider.class,
    description = "Print the fabric configurations jfabric's providers offer, as libfabric's fi_info does.")
final class InfoCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = {"-s", "--src_addr"}, paramLabel = "ADDR",
        description = "source name or address (fi_getinfo with FI_SOURCE); -n takes precedence")
    private String srcAddr;

    @Option(names = {"-n", "--node"}, paramLabel = "NAME", description = "dest node name or address")
    private String node;

    @Option(names = {"-P", "--port"}, paramLabel = "PNUM", description = "port number")
    private String port;

    @Option(names = {"-c", "--caps"}, paramLabel = "CAP1|CAP2..",
        description = "one or more capabilities: FI_MSG|FI_RMA...")
    private String caps;

    @Option(names = {"-m", "--mode"}, paramLabel = "MOD1|MOD2..",
        description = "one or more modes, default all modes")
    private String mode;

    @Option(names = {"-t", "--ep_type"}, paramLabel = "EPTYPE",
        description = "specify single endpoint type: FI_EP_MSG, FI_EP_DGRAM...")
    private String epType;

    @Option(names = {"-d", "--domain"}, paramLabel = "DOMAIN", description = "specify the domain name")
    private String domain;

    @Option(names = {"-f", "--fabric"}, paramLabel = "FABRIC", description = "specify the fabric name")
    private String fabric;

    @Option(names = {"-a", "--addr_format"}, paramLabel = "FMT",
        description = "specify accepted address format: FI_FORMAT_UNSPEC, FI_SOCKADDR...")
    private String addrFormat;

    @Option(names = {"-p", "--provider"}, paramLabel = "PROV", description = "specify provider explicitly")
    private String provider;

    @Option(names = {"-l", "--list"}, description = "list available providers")
    private boolean list;

    @Option(names = {"-v", "--verbose"}, description = "verbose output")
    private boolean verbose;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try
        {
            if (list)
            {
                listProviders(out);
                return 0;
            }
            final Info hints;
            try
            {
                hints = hints();
            }
            catch (final HintNames.UnrecognizedNameException ex)
            {
                err.print("error: " + ex.getMessage() + "\n");
                return Errno.FI_EINVAL;
            }
            final List<Info> infos;
            try
            {
                final boolean source = node == null && srcAddr != null;
                infos = Fabrics.getInfo(
                    Versions.FI_CURRENT_VERSION, source ? srcAddr : node, port, source ? Flags.FI_SOURCE : 0, hints);
            }
            catch (final FabricException ex)
            {
                err.print("fi_getinfo: -" + ex.errno() + "\n");
                err.print("    (" + ex.reason() + ")\n");
                return ex.errno();
            }
            for (final Info info : infos)
            {
                if (verbose)
                {
                    out.print("---\n");
                    out.print(ToStr.toStr(info));
                }
                else
                {
                    printShort(out, info);
                }
            }
            if (!verbose)
            {
                noteLookAlikes(err, infos);
            }
            return 0;
        }
        finally
        {
            out.flush();
            err.flush();
        }
    }

    private Info hints() throws HintNames.UnrecognizedNameException
    {
        final Info hints = new Info().mode(mode == null ? ~0L : HintNames.modes(mode));
        hints.domainAttr().mode(~0L).mrMode(~(MrMode.FI_MR_BASIC | MrMode.FI_MR_SCALABLE));
        if (caps != null)
        {
            hints.caps(HintNames.caps(caps));
        }
        if (epType != null)
        {
            hints.epAttr().type(HintNames.epType(epType));
        }
        if (addrFormat != null)
        {
            hints.addrFormat(HintNames.addrFormat(addrFormat));
        }
        hints.domainAttr().name(domain);
        hints.fabricAttr().name(fabric).provName(provider);
        return hints;
    }

    private void listProviders(final PrintWriter out)
    {
        for (final FabricProvider p : Fabrics.providers())
        {
            if (verbose)
            {
                final Info attrOnly = new Info();
                attrOnly.fabricAttr().provName(p.name()).provVersion(p.version());
                out.print("---\n");
                out.print(ToStr.toStr(attrOnly));
            }
            else
            {
                out.print(p.name() + ":\n");
                out.print("    version: " + version(p.version()) + "\n");
            }
        }
    }

    private static void printShort(final PrintWriter out, final Info info)
    {
        final String none = "(null)";
        final boolean hasFabric = info.fabricAttr() != null;
        out.print("provider: " + (hasFabric ? orNull(info.fabricAttr().provName()) : none) + "\n");
        out.print("    fabric: " + (hasFabric ? orNull(info.fabricAttr().name()) : none) + "\n");
        out.print("    domain: " + (info.domainAttr() != null ? orNull(info.domainAttr().name()) : none) + "\n");
        out.print("    version: " + (hasFabric ? version(info.fabricAttr().provVersion()) : none) + "\n");
        final boolean hasEp = info.epAttr() != null;
        out.print("    type: " + (hasEp ? ToStr.toStr(info.epAttr().type(), FiType.EP_TYPE) : none) + "\n");
        out.print("    protocol: " + (hasEp ? ToStr.toStr(info.epAttr().protocol(), FiType.PROTOCOL) : none) + "\n");
    }

    /**
     * Entries the short form prints alike (shm offers the same endpoint with manual and with automatic progress): on
     * stderr, so that stdout stays fi_info's, the fields of {@code -v} that tell them apart.
     */
    private static void noteLookAlikes(final PrintWriter err, final List<Info> infos)
    {
        final Map<String, List<Integer>> byBlock = new LinkedHashMap<>();
        for (int i = 0; i < infos.size(); i++)
        {
            final StringWriter block = new StringWriter();
            printShort(new PrintWriter(block), infos.get(i));
            byBlock.computeIfAbsent(block.toString(), key -> new ArrayList<>()).add(i);
        }
        for (final List<Integer> alike : byBlock.values())
        {
            if (alike.size() < 2)
            {
                continue;
            }
            final List<List<String>> fields = new ArrayList<>();
            for (final int i : alike)
            {
                fields.add(ToStr.toStr(infos.get(i)).lines().map(String::trim).toList());
            }
            final StringBuilder note = new StringBuilder("# entries");
            for (final int i : alike)
            {
                note.append(' ').append(i + 1);
            }
            note.append(" print alike; -v shows every field. They differ in:");
            for (int k = 0; k < alike.size(); k++)
            {
                final List<String> own = new ArrayList<>(fields.get(k));
                final List<List<String>> others = new ArrayList<>(fields);
                others.remove(k);
                own.removeIf(line -> others.stream().allMatch(other -> other.contains(line)));
                note.append("\n#   entry ").append(alike.get(k) + 1).append(": ").append(String.join("; ", own));
            }
            err.print(note.append('\n'));
        }
    }

    private static String version(final int version)
    {
        return Versions.major(version) + "." + Versions.minor(version);
    }

    private static String orNull(final String s)
    {
        return s == null ? "(null)" : s;
    }
}
