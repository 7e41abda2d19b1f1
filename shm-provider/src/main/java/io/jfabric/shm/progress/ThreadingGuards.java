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
package io.jfabric.shm.progress;

import io.jfabric.Threading;
import io.jfabric.shm.core.BrokenVariant;

/**
 * The one place that decides, per threading model of fi_domain(3) and data progress mode, which of the data path's
 * guards are real locks and which the application's own serialization makes no-ops.
 * <p>
 * The parties: the <em>sending side</em> of an endpoint (send, inject, claim), its <em>receiving side</em> (receive
 * posts, cancel), <em>progress</em> of the endpoint (run by every read of a CQ or counter bound to it under manual
 * progress, by the agent under automatic progress, and by a send that queued work), and <em>CQ readers</em>.
 * <pre>
 * model       app serializes                          send  tx progress  rx guard  CQ read  CQ writers
 * SAFE        nothing                                  lock  lock         lock      lock     many
 * FID         each object (endpoint, CQ, counter)      -     lock         lock      -        many
 * ENDPOINT    each endpoint (tx with rx), each CQ      -     lock         lock      -        many
 * COMPLETION  an endpoint with its CQs and counters    -     -            -         -        one
 * DOMAIN      everything in the domain                 -     -            -         -        one
 * + AUTO      (any model) an agent progresses too      as    lock         lock      as       many
 *                                                      above                        above
 * </pre>
 * Why each is needed: under FID and ENDPOINT one thread may send while another reads a CQ bound to the endpoint,
 * which progresses the endpoint (fi_domain(3) gives exactly that example), and the transmit and receive CQs may be
 * two objects read on two threads, so progress must exclude itself; receive posts share the matcher with receive
 * progress. The sending side needs no lock against progress under any model: the transmit context hands queued
 * work to progress through single-producer, single-consumer rings and hands each peer's lane back and forth by
 * counts (see {@code TxContext}). Under COMPLETION and DOMAIN every party of an endpoint is one serialization
 * group, so nothing is locked and a CQ has one writer at a time (which lets a read take completions straight into
 * its array).
 * <p>
 * The campaign's {@link BrokenVariant}s drop one guard of one model: {@code guard.send.M},
 * {@code guard.progress.M}, {@code guard.receive.M}, {@code guard.cqread.M}, {@code cq.writers.M} (one writer
 * assumed), M a model's name.
 * <p>
 * Immutable; any thread. Each {@code *Guard()} call returns a new guard, one per object that needs it.
 */
public final class ThreadingGuards
{
    private final boolean concurrentSenders;
    private final boolean concurrentProgress;
    private final boolean concurrentReaders;
    private final boolean concurrentReceives;

    private final boolean concurrentWriters;

    private ThreadingGuards(final Threading model, final boolean autoProgress)
    {
        final Threading m = model == Threading.UNSPEC ? Threading.SAFE : model;
        final boolean safe = m == Threading.SAFE;
        final boolean progressFromManyThreads = safe || m == Threading.FID || m == Threading.ENDPOINT || autoProgress;
        concurrentSenders = safe && !BrokenVariant.active("guard.send." + m);
        concurrentProgress = progressFromManyThreads && !BrokenVariant.active("guard.progress." + m);
        concurrentReceives = progressFromManyThreads && !BrokenVariant.active("guard.receive." + m);
        concurrentReaders = safe && !BrokenVariant.active("guard.cqread." + m);
        concurrentWriters = progressFromManyThreads && !BrokenVariant.active("cq.writers." + m);
    }

    /**
     * @param model        the domain's threading model (UNSPEC is taken as SAFE).
     * @param autoProgress whether the domain's data progress is automatic.
     * @return the guards of that combination.
     */
    public static ThreadingGuards of(final Threading model, final boolean autoProgress)
    {
        return new ThreadingGuards(model, autoProgress);
    }

    /** @return a guard for an endpoint's sending side: several threads may send on one endpoint at once. */
    public SpinGuard sendGuard()
    {
        return concurrentSenders ? SpinGuard.spin() : SpinGuard.NONE;
    }

    /** @return a guard for an endpoint's transmit progress: several threads may progress one endpoint at once. */
    public SpinGuard progressGuard()
    {
        return concurrentProgress ? SpinGuard.spin() : SpinGuard.NONE;
    }

    /** @return a guard between an endpoint's receive posts and its receive progress. */
    public SpinGuard receiveGuard()
    {
        return concurrentReceives ? SpinGuard.spin() : SpinGuard.NONE;
    }

    /** @return a guard for a CQ's reads: several threads may read one CQ at once. */
    public SpinGuard cqReadGuard()
    {
        return concurrentReaders ? SpinGuard.spin() : SpinGuard.NONE;
    }

    /** @return whether several threads may write one CQ at once (its ring must then take many producers). */
    public boolean concurrentCqWriters()
    {
        return concurrentWriters;
    }
}
