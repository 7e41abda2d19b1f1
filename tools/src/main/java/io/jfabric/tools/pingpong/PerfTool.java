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

/**
 * The two-JVM measurements the pingpong classes run: {@code jfabric pingpong} (latency: one transfer in flight, the
 * peer answers each) and {@code jfabric bw} (bandwidth: a window of transfers in flight, as fabtests' fi_msg_bw and
 * fi_rma_bw). They share the provider lookup, the rendezvous, the peer launch, the size list and the output format;
 * the name is the subcommand the peer JVM is started with and what the rendezvous files and hello carry, so a
 * pingpong and a bw never pair up. Immutable.
 */
public enum PerfTool
{
    /** {@code jfabric pingpong}: {@link PingpongRun}. */
    PINGPONG,
    /** {@code jfabric bw}: {@link BwRun}. */
    BW;

    /** @return the subcommand's name. */
    public String cliName()
    {
        return this == PINGPONG ? "pingpong" : "bw";
    }
}
