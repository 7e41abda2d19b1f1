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

/**
 * The control messages of a pingpong or bw, over the run's own endpoint and receive slot 0 (the out-of-band talk
 * fabtests has over its TCP socket): the client's hello carrying {@link PingpongOptions#agreement()} and the server's
 * {@code ok} or why not, the one-sided modes' memory keys ({@link PingpongEndpoint#regionText()}), the per-size
 * steps and the client's {@code fin}. Each text goes as one message of at most {@link PingpongEndpoint#CTRL_BYTES};
 * after one is read the receive is posted again unless the caller says not to (a bw receiver, whose data receives
 * must not meet a posted control receive). A failure throws {@link PingpongException} naming the side and the phase.
 * The run's thread.
 */
final class ControlChannel
{
    /** The server's answer to a hello with the same settings. */
    static final String OK = "ok";
    /** The client's last message. */
    static final String FIN = "fin";

    private final PingpongEndpoint endpoint;
    private final PingpongOptions options;
    private final Role role;

    /**
     * @param endpoint the run's endpoint, its first receive posted.
     * @param options  the run's settings.
     * @param role     this side.
     */
    ControlChannel(final PingpongEndpoint endpoint, final PingpongOptions options, final Role role)
    {
        this.endpoint = endpoint;
        this.options = options;
        this.role = role;
    }

    /**
     * The client's side of the hello: send the settings, expect {@link #OK}.
     */
    void hello()
    {
        send(options.agreement(), "sending the hello");
        await(OK);
    }

    /**
     * The server's side of the hello: read the client's settings and answer {@link #OK}, or why not and fail.
     *
     * @param repost post the receive again after the hello.
     * @throws PingpongException {@link Errno#FI_EINVAL} when the settings differ.
     */
    void answerHello(final boolean repost)
    {
        final String hello = receive("waiting for the hello", repost);
        final boolean agreed = hello.equals(options.agreement());
        send(agreed ? OK : "the server runs " + options.agreement(), "answering");
        if (!agreed)
        {
            throw new PingpongException(Errno.FI_EINVAL, tool() + ": the client runs '" + hello +
                "' but this server runs '" + options.agreement() + "'; give both sides the same -S, -I, -W, -c" +
                (options.tool() == PerfTool.BW ? ", -w" : "") + " and transfer mode");
        }
    }

    /**
     * Tell each other where the registered memory is (the one-sided modes): the client sends first.
     */
    void exchangeRegions()
    {
        if (role == Role.CLIENT)
        {
            send(endpoint.oneSided().regionText(), "sending this side's memory key");
            endpoint.oneSided().insertPeerRegion(receive("waiting for the server's memory key", true));
        }
        else
        {
            endpoint.oneSided().insertPeerRegion(receive("waiting for the client's memory key", true));
            send(endpoint.oneSided().regionText(), "sending this side's memory key");
        }
    }

    /**
     * @param text  at most {@link PingpongEndpoint#CTRL_BYTES} US-ASCII characters.
     * @param phase what this is, for a failure.
     */
    void send(final String text, final String phase)
    {
        check(endpoint.sendText(text), phase);
    }

    /**
     * @param phase  what this waits for, for a failure.
     * @param repost post the receive again after reading it.
     * @return the next message, as text.
     */
    String receive(final String phase, final boolean repost)
    {
        check(endpoint.awaitNextRx(), phase);
        final String text = endpoint.receivedText();
        if (repost)
        {
            check(endpoint.postRecv(), "posting a receive");
        }
        return text;
    }

    /**
     * Read the next message, which must be {@code expected}; the receive is posted again.
     *
     * @param expected the text.
     * @throws PingpongException {@link Errno#FI_EINVAL} when it is another.
     */
    void await(final String expected)
    {
        await(expected, true);
    }

    /**
     * Read the next message, which must be {@code expected}.
     *
     * @param expected the text.
     * @param repost   post the receive again after reading it.
     * @throws PingpongException {@link Errno#FI_EINVAL} when it is another.
     */
    void await(final String expected, final boolean repost)
    {
        final String text = receive("waiting for '" + expected + "'", repost);
        if (!text.equals(expected))
        {
            throw new PingpongException(Errno.FI_EINVAL, tool() + ": expected '" + expected + "' from the " +
                role.peer().cliName() + ", got '" + text + "'");
        }
    }

    /**
     * @param rc    a data-path call's result.
     * @param phase what it was for.
     * @throws PingpongException when it failed, naming the side, what failed and the phase.
     */
    void check(final long rc, final String phase)
    {
        if (rc < 0)
        {
            throw new PingpongException((int)-rc, tool() + " " + role.cliName() + ": " + endpoint.failure() + " (" +
                phase + ")");
        }
    }

    private String tool()
    {
        return options.tool().cliName();
    }
}
