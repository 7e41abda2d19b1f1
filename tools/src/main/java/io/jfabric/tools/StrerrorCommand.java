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
import io.jfabric.tools.cli.VersionProvider;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * {@code jfabric strerror}: the text {@code fi_strerror} gives for error numbers or names, one line each
 * ({@code jfabric strerror 11}, {@code -11}, {@code 0xb}, {@code 013}, {@code FI_EAGAIN}, {@code eagain}). Numbers
 * are read as C's {@code strtol(arg, &end, 0)} reads them, the whole argument taken: decimal, {@code 0x}/{@code 0X}
 * hexadecimal or, with a leading 0, octal, with an optional sign. Numbers libfabric has no text for print as
 * {@code fi_strerror} prints them ("Unspecified error" past FI_ERRNO_MAX). When any argument is neither a number
 * that fits an int nor a name libfabric defines, nothing is printed on stdout: each such argument is named on
 * stderr, then the usage, and the exit status is 1 (a usage error, as for the other commands).
 * Runs on the command line's thread.
 */
@Command(
    name = "strerror",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 1,
    versionProvider = VersionProvider.class,
    description = "Print fi_strerror's text for libfabric error numbers or names.")
final class StrerrorCommand implements Callable<Integer>
{
    /** What {@code strtol(s, &end, 0)} reads to the end of {@code s}: decimal, 0x hexadecimal, 0 octal. */
    private static final Pattern NUMBER = Pattern.compile("[+-]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)");

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "ERRNO",
        description = "an error number, read as C's strtol(ERRNO, &end, 0) reads it (decimal 61, 0x hex 0x3d, " +
            "0 octal 075, signed or not), or a name (FI_EAGAIN, EAGAIN, -FI_EAGAIN), any case")
    private List<String> errors;

    @Override
    public Integer call()
    {
        final List<String> texts = new ArrayList<>(errors.size());
        final StringBuilder bad = new StringBuilder();
        for (final String error : errors)
        {
            final Integer errno = parse(error);
            if (errno == null)
            {
                bad.append(bad.length() == 0 ? "" : "\n")
                    .append("jfabric strerror: not a libfabric error number or name: '").append(error).append('\'');
            }
            else
            {
                texts.add(Errno.strerror(errno));
            }
        }
        if (bad.length() > 0)
        {
            throw new ParameterException(spec.commandLine(), bad.toString());
        }
        final PrintWriter out = spec.commandLine().getOut();
        for (final String text : texts)
        {
            out.print(text + "\n");
        }
        out.flush();
        return 0;
    }

    /**
     * @param error a number as {@code strtol(error, &end, 0)} reads it with {@code *end == '\0'} after the
     *              surrounding blanks are trimmed, or a name with or without FI_ and a leading '-'.
     * @return the error number, or null when it is neither or the number does not fit an int.
     */
    static Integer parse(final String error)
    {
        final String s = error.trim();
        if (NUMBER.matcher(s).matches())
        {
            try
            {
                return Integer.decode(s);
            }
            catch (final NumberFormatException ex)
            {
                return null;
            }
        }
        final int errno = Errno.valueOf(s.startsWith("-") ? s.substring(1) : s);
        return errno < 0 ? null : errno;
    }
}
