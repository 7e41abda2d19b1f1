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

import java.io.PrintWriter;

/**
 * One side of a pingpong or bw from start to end, what {@link PingpongRun} and {@link BwRun} share: what the side
 * works with (the provider fi_getinfo found, the settings, its role, its cleanup, where it prints), the control channel
 * and progress bar, and the frame of a run: meet the peer ({@link PeerLink}), the client's hello and the server's
 * answer ({@link ControlChannel}), then the subclass's {@link #afterHello}, which ends with {@link #fin}. Runs on the
 * calling thread: the command's.
 */
abstract class PerfRun
{
    /**
     * What a run is made from: what {@link PeerSession} found and set up, and where this side prints. Immutable.
     *
     * @param provider what fi_getinfo found, and its root directory.
     * @param options  the run's settings.
     * @param role     this side.
     * @param quiet    print nothing but errors (the peer --self starts).
     * @param cleanup  what removes this side's files at the end.
     * @param out      where results go.
     * @param err      where the client's progress bar goes when stderr is not a terminal.
     */
    record Setup(
        PingpongProvider provider,
        PingpongOptions options,
        Role role,
        boolean quiet,
        ExitCleanup cleanup,
        PrintWriter out,
        PrintWriter err)
    {
    }

    final PingpongProvider provider;
    final PingpongOptions options;
    final TransferMode mode;
    final Role role;
    final boolean quiet;
    final ExitCleanup cleanup;
    final PrintWriter out;
    final PrintWriter err;
    /** The control messages, from the hello on. */
    ControlChannel control;
    /** The client's progress bar while the sizes run. */
    ProgressMeter meter;
    /** Transfers (bw) or round trips (pingpong) run so far in the whole run, for the progress bar. */
    long progress;

    /**
     * @param setup what the run is made from.
     */
    PerfRun(final Setup setup)
    {
        this.provider = setup.provider();
        this.options = setup.options();
        this.mode = options.mode();
        this.role = setup.role();
        this.quiet = setup.quiet();
        this.cleanup = setup.cleanup();
        this.out = setup.out();
        this.err = setup.err();
    }

    /**
     * Run this side: meet the peer, agree on the settings, then {@link #afterHello}.
     *
     * @throws PingpongException when a data-path call fails, the data did not all arrive, or the peer disagrees or
     *                           does not answer.
     */
    final void run()
    {
        try (PeerLink link = PeerLink.connect(provider, options, role, cleanup))
        {
            final PingpongEndpoint endpoint = link.endpoint();
            final int[] sizes = options.sizes().within(endpoint.maxMsgSize()).sizes();
            control = new ControlChannel(endpoint, options, role);
            if (role == Role.CLIENT)
            {
                control.hello();
            }
            else
            {
                control.answerHello(repostAfterHello());
            }
            afterHello(link, endpoint, sizes);
        }
    }

    /**
     * @return true when the server posts its control receive again after answering the hello, for the control
     * messages that follow it.
     */
    abstract boolean repostAfterHello();

    /**
     * The run after the hello, to the end of the {@link #fin}.
     *
     * @param link     the link to the peer.
     * @param endpoint this side's endpoint.
     * @param sizes    the sizes to run, those above the provider's max_msg_size left out.
     */
    abstract void afterHello(PeerLink link, PingpongEndpoint endpoint, int[] sizes);

    /**
     * The end of a run: the client sends {@code fin} and waits for the server to exit; the server waits for the
     * {@code fin}, its control receive already posted.
     *
     * @param link the link to the peer.
     */
    final void fin(final PeerLink link)
    {
        if (role == Role.CLIENT)
        {
            control.send(ControlChannel.FIN, "sending fin");
            link.awaitServerExit(control);
        }
        else
        {
            control.await(ControlChannel.FIN);
        }
    }
}
