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
package io.jfabric.shm.ep;

import io.jfabric.Addresses;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.Msg;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;
import io.jfabric.shm.region.SlotDescriptor;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The second process of the two-JVM endpoint tests: opens the named domain given as its argument (root from
 * {@code -Djfabric.shm.dir}, manual progress) and then obeys one command per stdin line, answering each with one
 * line {@code ok seq=<n> k=v ...} or {@code err seq=<n> <what>} on stdout, {@code n} being the command's own
 * {@code seq=} (see {@link EpPeer}). Between commands it progresses all its endpoints (reads their CQs), unless
 * told to {@code pause}, so the parent's large sends and retried sends can move; stdin closing ends it.
 * <p>
 * Commands (numbers decimal, {@code src}/{@code dest} are fi_addrs in the endpoint's own AV, -1 for FI_ADDR_UNSPEC):
 * <ul>
 *   <li>{@code open id= format= bind=}: an endpoint with its own AV and a CQ of that format bound with those flags;
 *       answers {@code addr=}.</li>
 *   <li>{@code insert id= addr=}: answers {@code fi=}.</li>
 *   <li>{@code send id= dest= op= size= count= seed= tag= tagstep= data= flags=}: {@code count} messages, message i
 *       with seed {@code seed+i}, tag {@code tag+i*tagstep}, data {@code data+i}; op is send, senddata, inject,
 *       injectdata, tsend, tsenddata, tinject, tinjectdata or sendmsg (with {@code flags}); -FI_EAGAIN is retried
 *       while progressing; answers once every send completed, with {@code eagain=} retries. With
 *       {@code mem=shareable} each message comes from registered shareable memory (the rendezvous path).</li>
 *   <li>{@code recv id= src= size= count= seed= tagged= tag= tagstep= ignore=}: posts and completes {@code count}
 *       receives one after the other and checks each message byte for byte (length {@code size}, seed
 *       {@code seed+i}, tag); answers with the last {@code flags=} and {@code srcs=} (comma separated).</li>
 *   <li>{@code stat id= offset=}: the endpoint's path counter at that SlotDescriptor offset; answers
 *       {@code value=}.</li>
 *   <li>{@code pause}: stop progressing until the next command.</li>
 *   <li>{@code close id=}: closes the endpoint, its CQ and AV.</li>
 * </ul>
 */
public final class EpPeerMain
{
    private static final String EXIT = "exit";

    private final Domain domain;
    private final Info info;
    private final Map<Integer, EpSide> sides = new HashMap<>();
    private long nextContext = 1;

    private EpPeerMain(final Domain domain, final Info info)
    {
        this.domain = domain;
        this.info = info;
    }

    /**
     * @param args the domain name.
     * @throws Exception when the domain cannot be opened.
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final List<Info> infos = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints);
        final Info info = infos.get(0);
        final LinkedBlockingQueue<String> commands = new LinkedBlockingQueue<>();
        final Thread reader = new Thread(() -> readCommands(commands), "stdin");
        reader.setDaemon(true);
        reader.start();
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0))
        {
            final EpPeerMain peer = new EpPeerMain(domain, info);
            reply("ok ready");
            peer.run(commands);
            for (final EpSide side : peer.sides.values())
            {
                side.close();
            }
        }
    }

    private static void readCommands(final LinkedBlockingQueue<String> commands)
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                commands.add(line.trim());
            }
        }
        catch (final Exception ignored)
        {
            // stdin gone: the parent is gone too.
        }
        commands.add(EXIT);
    }

    private static void reply(final String line)
    {
        System.out.println(line.replace('\n', ' '));
        System.out.flush();
    }

    private void run(final LinkedBlockingQueue<String> commands) throws InterruptedException
    {
        boolean paused = false;
        int idle = 0;
        while (true)
        {
            final String command = paused ? commands.poll(1, TimeUnit.SECONDS) : commands.poll();
            if (command == null)
            {
                if (!paused)
                {
                    idle = pumpAll() > 0 ? 0 : idle + 1;
                    if (idle > 10_000)
                    {
                        Thread.sleep(0, 20_000);
                    }
                }
                continue;
            }
            if (EXIT.equals(command))
            {
                return;
            }
            idle = 0;
            paused = false;
            final Map<String, String> a = parse(command);
            final String seq = "seq=" + a.get("seq") + " ";
            try
            {
                final String verb = command.split(" ", 2)[0];
                if ("pause".equals(verb))
                {
                    paused = true;
                    reply("ok " + seq + "paused=true");
                }
                else
                {
                    reply("ok " + seq + execute(verb, a));
                }
            }
            catch (final Throwable t)
            {
                reply("err " + seq + command + ": " + t);
            }
        }
    }

    private int pumpAll()
    {
        int n = 0;
        for (final EpSide side : sides.values())
        {
            n += Math.max(0, side.pump());
        }
        return n;
    }

    private String execute(final String verb, final Map<String, String> a)
    {
        switch (verb)
        {
            case "open":
            {
                final EpSide side = EpSide.open(domain, info, CqFormat.valueOf(a.get("format")),
                    Long.parseLong(a.get("bind")));
                sides.put(Integer.parseInt(a.get("id")), side);
                return "addr=" + side.name;
            }
            case "insert":
                return "fi=" + side(a).insert(a.get("addr"));
            case "close":
                sides.remove(Integer.parseInt(a.get("id"))).close();
                return "closed";
            case "send":
                return send(side(a), a);
            case "recv":
                return recv(side(a), a);
            case "stat":
                return "value=" + side(a).pathCount(domain, Integer.parseInt(a.get("offset")));
            default:
                throw new IllegalArgumentException("unknown command " + verb);
        }
    }

    private EpSide side(final Map<String, String> a)
    {
        final EpSide side = sides.get(Integer.parseInt(a.get("id")));
        if (side == null)
        {
            throw new IllegalArgumentException("no endpoint " + a.get("id"));
        }
        return side;
    }

    private String send(final EpSide side, final Map<String, String> a)
    {
        final long dest = Long.parseLong(a.get("dest"));
        final String op = a.get("op");
        final int size = num(a, "size", 0);
        final int count = num(a, "count", 1);
        final long seed = lnum(a, "seed", 0);
        final long tag = lnum(a, "tag", 0);
        final long tagStep = lnum(a, "tagstep", 0);
        final long data = lnum(a, "data", 0);
        final long flags = lnum(a, "flags", 0);
        final boolean inject = op.contains("inject");
        final long[] contexts = new long[count];
        long eagain = 0;
        final Msg msg = new Msg(1);
        final boolean shareable = "shareable".equals(a.get("mem"));
        final List<AutoCloseable> memory = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final ByteBuffer buf;
            final long desc;
            if (shareable)
            {
                final ShareableMemory m = domain.allocShareable(Math.max(1, size));
                memory.add(m);
                final MemoryRegion mr = domain.mrRegv(new MrIov[] { MrIov.of(m, 0, Math.max(1, size)) }, Flags.FI_SEND,
                    0, ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE), 0, 0);
                memory.add(0, mr);
                buf = m.buffer();
                desc = mr.desc();
            }
            else
            {
                buf = ByteBuffer.allocateDirect(Math.max(1, size));
                desc = 0;
            }
            Pattern.fill(buf, 0, size, seed + i);
            final long ctx = nextContext++;
            contexts[i] = ctx;
            final long t = tag + i * tagStep;
            final long d = data + i;
            final LongSupplier post = switch (op)
            {
                case "send" -> () -> side.ep.send(buf, 0, size, desc, dest, ctx);
                case "senddata" -> () -> side.ep.senddata(buf, 0, size, desc, d, dest, ctx);
                case "inject" -> () -> side.ep.inject(buf, 0, size, dest);
                case "injectdata" -> () -> side.ep.injectdata(buf, 0, size, d, dest);
                case "tsend" -> () -> side.ep.tsend(buf, 0, size, desc, dest, t, ctx);
                case "tsenddata" -> () -> side.ep.tsenddata(buf, 0, size, desc, d, dest, t, ctx);
                case "tinject" -> () -> side.ep.tinject(buf, 0, size, dest, t);
                case "tinjectdata" -> () -> side.ep.tinjectdata(buf, 0, size, d, dest, t);
                case "sendmsg" -> () ->
                {
                    msg.set(buf, 0, size, desc);
                    msg.addr = dest;
                    msg.context = ctx;
                    msg.data = d;
                    msg.tag = t;
                    return side.ep.sendmsg(msg, flags);
                };
                default -> throw new IllegalArgumentException("unknown op " + op);
            };
            eagain += side.retry(post);
        }
        if (!inject && (!"sendmsg".equals(op) || (flags & Flags.FI_INJECT) == 0))
        {
            for (final long ctx : contexts)
            {
                side.await(ctx);
            }
        }
        for (final AutoCloseable m : memory)
        {
            try
            {
                m.close();
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException("closing shareable memory: " + ex, ex);
            }
        }
        return "sent=" + count + " eagain=" + eagain;
    }

    private String recv(final EpSide side, final Map<String, String> a)
    {
        final long src = lnum(a, "src", -1);
        final long srcAddr = src < 0 ? Addresses.FI_ADDR_UNSPEC : src;
        final int size = num(a, "size", 0);
        final int count = num(a, "count", 1);
        final long seed = lnum(a, "seed", 0);
        final boolean tagged = num(a, "tagged", 0) != 0;
        final long tag = lnum(a, "tag", 0);
        final long tagStep = lnum(a, "tagstep", 0);
        final long ignore = lnum(a, "ignore", 0);
        final ByteBuffer buf = Pattern.guarded(size + 16);
        final StringBuilder srcs = new StringBuilder();
        long lastFlags = 0;
        for (int i = 0; i < count; i++)
        {
            final long ctx = nextContext++;
            final long t = tag + i * tagStep;
            Pattern.guard(buf);
            side.retry(() -> tagged ? side.ep.trecv(buf, 0, size, 0, srcAddr, t, ignore, ctx) :
                side.ep.recv(buf, 0, size, 0, srcAddr, ctx));
            final EpSide.Completion c = side.await(ctx);
            if (c.len() != size)
            {
                throw new IllegalStateException("message " + i + ": " + c + " has len " + c.len() + ", expected " +
                    size);
            }
            if (tagged && c.tag() != t)
            {
                throw new IllegalStateException("message " + i + ": " + c + " has tag 0x" + Long.toHexString(c.tag()) +
                    ", expected 0x" + Long.toHexString(t));
            }
            final String bad = Pattern.check(buf, 0, size, seed + i);
            if (bad != null)
            {
                throw new IllegalStateException("message " + i + " (seed " + (seed + i) + "): " + bad);
            }
            final String guard = Pattern.checkGuard(buf, size, 16);
            if (guard != null)
            {
                throw new IllegalStateException("message " + i + ": " + guard);
            }
            lastFlags = c.flags();
            srcs.append(i == 0 ? "" : ",").append(c.srcAddr());
        }
        return "received=" + count + " flags=" + lastFlags + " srcs=" + srcs;
    }

    /**
     * @param line a command or answer: words, some of them {@code key=value}.
     * @return the pairs.
     */
    static Map<String, String> parse(final String line)
    {
        final Map<String, String> a = new HashMap<>();
        for (final String pair : line.split(" "))
        {
            final int eq = pair.indexOf('=');
            if (eq > 0)
            {
                a.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return a;
    }

    private static int num(final Map<String, String> a, final String key, final int dflt)
    {
        return a.containsKey(key) ? Integer.parseInt(a.get(key)) : dflt;
    }

    private static long lnum(final Map<String, String> a, final String key, final long dflt)
    {
        return a.containsKey(key) ? Long.decode(a.get(key)) : dflt;
    }
}
