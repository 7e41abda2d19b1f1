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

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One in-process run of the jfabric command line: its exit status and everything it printed. Shared by the tests of
 * every subcommand's package.
 */
public final class CommandRun
{
    /** The exit status. */
    public final int status;
    /** What it printed on stdout. */
    public final String out;
    /** What it printed on stderr. */
    public final String err;

    private CommandRun(final int status, final String out, final String err)
    {
        this.status = status;
        this.out = out;
        this.err = err;
    }

    /**
     * @param args the command line.
     * @return how it ended and what it printed.
     */
    public static CommandRun run(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int status = JfabricMain.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new CommandRun(status, out.toString(), err.toString());
    }

    @Override
    public String toString()
    {
        return "status " + status + "\n--- out\n" + out + "--- err\n" + err;
    }
}
