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
package io.jfabric.examples;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --name value} options of an example's command line, each with a default, so the examples stay free of
 * an option library. An unknown option, a missing value or a value that is not a number where one is wanted is a
 * usage error: {@link UsageException}, which the example's main turns into exit status 1 and a usage line.
 * {@code -p} is short for {@code --provider}, as in {@code fi_info} and {@code fi_pingpong}.
 * <p>
 * Called by the main thread only, before anything is opened.
 */
public final class ExampleArgs
{
    private static final Map<String, String> SHORT = Map.of("-p", "--provider");

    private final String usage;
    private final Map<String, String> values;

    private ExampleArgs(final String usage, final Map<String, String> values)
    {
        this.usage = usage;
        this.values = values;
    }

    /**
     * Parse {@code args} against the options {@code defaults} names.
     *
     * @param usage    the usage line printed on a usage error, such as {@code "publisher [--count N]"}.
     * @param defaults every option's name (without "--") and its default value.
     * @param args     the command line.
     * @return the options, defaults filled in.
     * @throws UsageException for an unknown option or a missing value.
     */
    public static ExampleArgs parse(final String usage, final Map<String, String> defaults, final String... args)
    {
        final Map<String, String> values = new LinkedHashMap<>(defaults);
        for (int i = 0; i < args.length; i++)
        {
            final String arg = SHORT.getOrDefault(args[i], args[i]);
            if ("-h".equals(arg) || "--help".equals(arg))
            {
                throw new UsageException(usage, null);
            }
            if (!arg.startsWith("--") || !defaults.containsKey(arg.substring(2)))
            {
                throw new UsageException(usage, "unknown option '" + arg + "'");
            }
            if (i + 1 == args.length)
            {
                throw new UsageException(usage, "option '" + arg + "' needs a value");
            }
            values.put(arg.substring(2), args[++i]);
        }
        return new ExampleArgs(usage, values);
    }

    /**
     * @param name an option's name.
     * @return its value.
     */
    public String string(final String name)
    {
        return values.get(name);
    }

    /**
     * @param name an option's name.
     * @return its value as a number, at least 0.
     * @throws UsageException when it is not a non-negative whole number.
     */
    public long number(final String name)
    {
        final String value = values.get(name);
        try
        {
            final long number = Long.parseLong(value);
            if (number >= 0)
            {
                return number;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new UsageException(usage, "--" + name + " wants a whole number >= 0, not '" + value + "'");
    }

    /**
     * A usage error; its message is what to print.
     */
    public static final class UsageException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        /**
         * @param usage  the usage line.
         * @param reason what was wrong, or null when help was asked for.
         */
        public UsageException(final String usage, final String reason)
        {
            super((reason != null ? reason + "\n" : "") + "usage: " + usage);
        }
    }
}
