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
package io.jfabric.shm.mr;

/**
 * Maps a segment of a process of the domain by its name, as a key table entry or an emulated request's bounce
 * reference gives it: the registrar's {@link MemoryRegistrar#openSegment}, which checks the file and reports a later
 * truncation on the domain's event queue. What {@link SegmentCache} and {@link LocalRegions} are given instead of
 * the registrar.
 * <p>
 * Threads: any; each call maps afresh (a control-path cost: the callers cache what they map).
 */
@FunctionalInterface
interface SegmentOpener
{
    /**
     * @param owner     the owner's {@code ProcessIdentity}.
     * @param segmentId the owner's number for it.
     * @param nonce     its nonce.
     * @return the mapping, or null when no such segment exists (freed, or its name holds another nonce).
     * @throws io.jfabric.FabricException as {@link SegmentFile#open} does (a damaged or foreign file).
     */
    SegmentFile open(long owner, long segmentId, long nonce);
}
