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
package io.jfabric.tools.fipp;

import io.jfabric.Errno;
import io.jfabric.FabricException;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * libfabric's fi_pingpong out-of-band control channel (util/pingpong.c), byte for byte, so that jfabric and C peers
 * meet: a TCP connection (the server listens on its source port, 47592 by default, the client connects to the
 * server's address and that port) over which each side sends its endpoint name as a 4-byte big-endian length, the
 * 4-byte address format in the sender's byte order and the name's bytes; "q\0"/"a\0" synchronise the sides before
 * each size; after it the client sends its received-message count in 10 bytes of NUL-padded decimal and the server
 * answers "cnt ok\0". Control path; one thread.
 */
public final class FiControl implements AutoCloseable
{
    /** fi_pingpong's default control port. */
    public static final int DEFAULT_PORT = 47592;
    private static final int COUNT_BYTES = 10;
    private static final int MAX_ADDRLEN = 1024;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    private FiControl(final Socket socket) throws IOException
    {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(60_000);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /**
     * Either side: the client (a server address given) connects, retrying while the server is not listening yet;
     * the server accepts one client, saying on {@code waiting} (stderr) once it listens and for how long it waits.
     *
     * @param server    the server's address, or null on the server.
     * @param port      the control port.
     * @param timeoutMs how long the server waits for its client, or the client keeps trying to reach its server.
     * @param waiting   where a server says it listens, or null.
     * @param tool      the tool's name, starting that line.
     * @return the channel.
     * @throws FabricException FI_ETIMEDOUT when no client came within {@code timeoutMs}.
     */
    public static FiControl open(final String server, final int port, final long timeoutMs,
        final PrintWriter waiting, final String tool) throws IOException
    {
        if (server != null)
        {
            return connect(server, port, timeoutMs);
        }
        return accept(port, timeoutMs, waiting == null ? null : () ->
        {
            waiting.println(tool + ": waiting up to " + timeoutMs / 1000 + " s for a client on control port " + port);
            waiting.flush();
        });
    }

    /**
     * The server's side: listen on every address, as fi_pingpong does, and take one client.
     *
     * @param port      the control port.
     * @param timeoutMs how long to wait for the client.
     * @param listening run once the port listens, or null.
     * @return the channel.
     * @throws FabricException FI_ETIMEDOUT when no client came within {@code timeoutMs}.
     */
    public static FiControl accept(final int port, final long timeoutMs, final Runnable listening) throws IOException
    {
        try (ServerSocket listener = new ServerSocket())
        {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(port), 10);
            listener.setSoTimeout((int)Math.min(Integer.MAX_VALUE, Math.max(1, timeoutMs)));
            if (listening != null)
            {
                listening.run();
            }
            return new FiControl(listener.accept());
        }
        catch (final SocketTimeoutException ex)
        {
            throw new FabricException(Errno.FI_ETIMEDOUT,
                "no client connected to control port " + port + " within " + timeoutMs / 1000 + " s (--timeout)");
        }
    }

    /**
     * The client's side.
     *
     * @param server the server's address.
     * @param port   the control port.
     * @param timeoutMs how long to keep trying while the server is not listening yet.
     * @return the channel.
     */
    public static FiControl connect(final String server, final int port, final long timeoutMs) throws IOException
    {
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true)
        {
            final Socket socket = new Socket();
            try
            {
                socket.connect(new InetSocketAddress(InetAddress.getByName(server), port), 5_000);
                return new FiControl(socket);
            }
            catch (final IOException ex)
            {
                socket.close();
                if (System.nanoTime() > deadline)
                {
                    throw ex;
                }
                try
                {
                    Thread.sleep(50);
                }
                catch (final InterruptedException interrupted)
                {
                    Thread.currentThread().interrupt();
                    throw ex;
                }
            }
        }
    }

    /**
     * @param name       the endpoint's name ({@code fi_getname}).
     * @param addrFormat its info's addr_format.
     */
    public void sendName(final byte[] name, final int addrFormat) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(8);
        header.order(ByteOrder.BIG_ENDIAN).putInt(0, name.length);
        header.order(ByteOrder.nativeOrder()).putInt(4, addrFormat);
        out.write(header.array());
        out.write(name);
        out.flush();
    }

    /** @return the peer's name, and its address format in {@link Name#addrFormat}. */
    public Name receiveName() throws IOException
    {
        final byte[] header = new byte[8];
        in.readFully(header);
        final int length = ByteBuffer.wrap(header).order(ByteOrder.BIG_ENDIAN).getInt(0);
        if (length <= 0 || length > MAX_ADDRLEN)
        {
            throw new IOException("the peer's name is " + length + " bytes long");
        }
        final int format = ByteBuffer.wrap(header).order(ByteOrder.nativeOrder()).getInt(4);
        final byte[] name = new byte[length];
        in.readFully(name);
        return new Name(name, format);
    }

    /**
     * Synchronise before a size: the client sends "q", the server answers "a".
     *
     * @param client whether this is the client.
     */
    public void sync(final boolean client) throws IOException
    {
        if (client)
        {
            send("q", 2);
            expect("a", 2);
        }
        else
        {
            expect("q", 2);
            send("a", 2);
        }
    }

    /**
     * After a size: the client reports its received-message count, the server acknowledges.
     *
     * @param client whether this is the client.
     * @param count  the client's count of messages received.
     */
    public void exchangeCount(final boolean client, final long count) throws IOException
    {
        if (client)
        {
            send(Long.toString(count), COUNT_BYTES);
            expect("cnt ok", 7);
        }
        else
        {
            final byte[] bytes = new byte[COUNT_BYTES];
            in.readFully(bytes);
            send("cnt ok", 7);
        }
    }

    private void send(final String text, final int bytes) throws IOException
    {
        out.write(Arrays.copyOf(text.getBytes(StandardCharsets.US_ASCII), bytes));
        out.flush();
    }

    private void expect(final String text, final int bytes) throws IOException
    {
        final byte[] got = new byte[bytes];
        in.readFully(got);
        final byte[] wanted = Arrays.copyOf(text.getBytes(StandardCharsets.US_ASCII), bytes);
        if (!Arrays.equals(got, wanted))
        {
            throw new IOException("control channel: expected '" + text + "', got " + Arrays.toString(got));
        }
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }

    /**
     * A peer's endpoint name.
     *
     * @param name       its bytes.
     * @param addrFormat its address format.
     */
    public record Name(byte[] name, int addrFormat)
    {
    }
}
