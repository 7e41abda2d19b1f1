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
package io.jfabric.tools.pingpong;

import io.jfabric.Errno;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * How the two sides of a pingpong learn each other's endpoint address (the out-of-band exchange fi_pingpong does
 * over a TCP socket): each side publishes {@code pid=<pid> addr=<fi_getname text>} in
 * {@code <root>/<domain>.<tool>-<role>} (as {@code pp.pingpong-server}, {@code bw.bw-client}), next to the domain's
 * region file, and reads the other side's. A file
 * is written to a temporary name and renamed, so a reader never sees half of one; a file whose pid is no longer
 * alive (left by a killed run) is ignored. Each side deletes its own file when it finishes (see
 * {@link ExitCleanup}). Setup thread only.
 */
final class Rendezvous
{
    private static final long POLL_MILLIS = 5;

    private final Path root;
    private final String domain;
    private final PerfTool tool;

    /**
     * A pingpong's rendezvous.
     *
     * @param root   the provider's root directory.
     * @param domain the domain name.
     */
    Rendezvous(final Path root, final String domain)
    {
        this(root, domain, PerfTool.PINGPONG);
    }

    /**
     * @param root   the provider's root directory.
     * @param domain the domain name.
     * @param tool   whose rendezvous: the files carry its name.
     */
    Rendezvous(final Path root, final String domain, final PerfTool tool)
    {
        this.root = root;
        this.domain = domain;
        this.tool = tool;
    }

    /**
     * @param role a side.
     * @return its rendezvous file.
     */
    Path file(final Role role)
    {
        return root.resolve(domain + "." + tool.cliName() + "-" + role.cliName());
    }

    /**
     * Publish this process's address for {@code role}.
     *
     * @param role    this side.
     * @param address the endpoint's address text.
     */
    void publish(final Role role, final String address)
    {
        final Path target = file(role);
        final Path temp = root.resolve(target.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        try
        {
            Files.writeString(temp, "pid=" + ProcessHandle.current().pid() + " addr=" + address + "\n",
                StandardCharsets.US_ASCII);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            try
            {
                Files.deleteIfExists(temp);
            }
            catch (final IOException ignore)
            {
                // What made the publish fail makes this fail too; the error below says what it was.
            }
            throw new UncheckedIOException(tool.cliName() + ": cannot publish this side's address in " + target, ex);
        }
    }

    /**
     * Wait for {@code role}'s address from a live process.
     *
     * @param role           the other side.
     * @param timeoutSeconds how long to wait.
     * @return its address text.
     * @throws PingpongException FI_ETIMEDOUT when none appears in time.
     */
    String await(final Role role, final int timeoutSeconds)
    {
        final Path path = file(role);
        final long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        while (true)
        {
            final Published published = read(path);
            if (published != null && ProcessHandle.of(published.pid).map(ProcessHandle::isAlive).orElse(false))
            {
                return published.address;
            }
            if (System.nanoTime() - deadline > 0)
            {
                throw new PingpongException(Errno.FI_ETIMEDOUT, tool.cliName() + ": no " + role.cliName() +
                    " of domain '" + domain + "' published its address in " + path + " within " + timeoutSeconds +
                    " s; start one with --role " + role.cliName() + " --domain " + domain);
            }
            sleep();
        }
    }

    /**
     * @param role the other side.
     * @return true when {@code role}'s file is gone or names a process that has exited.
     */
    boolean finished(final Role role)
    {
        final Published published = read(file(role));
        return published == null || !ProcessHandle.of(published.pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private Published read(final Path path)
    {
        final String text;
        try
        {
            text = Files.readString(path, StandardCharsets.US_ASCII).trim();
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(tool.cliName() + ": cannot read " + path, ex);
        }
        final int space = text.indexOf(' ');
        if (!text.startsWith("pid=") || space < 0 || !text.startsWith("addr=", space + 1))
        {
            return null;
        }
        try
        {
            return new Published(Long.parseLong(text.substring(4, space)), text.substring(space + 6));
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }

    private void sleep()
    {
        try
        {
            Thread.sleep(POLL_MILLIS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new PingpongException(Errno.FI_EINTR, tool.cliName() + ": interrupted while waiting for the peer");
        }
    }

    private static final class Published
    {
        final long pid;
        final String address;

        Published(final long pid, final String address)
        {
            this.pid = pid;
            this.address = address;
        }
    }
}
