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
package io.jfabric.stress.process;

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.shm.rma.AtomicOps;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.TwoMappings;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two processes (two mappings of one file) update neighbouring 8- and 16-bit elements of the same aligned 32-bit
 * words at once, with the real {@link AtomicOps} code through fi_atomic's array-level call: both updates survive,
 * no carry crosses into a neighbour, and the bytes nobody targets keep their values.
 * <p>
 * Word 0 holds FI_UINT8 255 at byte 0, FI_INT8 20 at byte 1 and two bytes nobody targets; word 1 holds FI_UINT16
 * 65535 at bytes 4-5 and FI_INT16 3000 at bytes 6-7. The first process adds 1 to byte 0 (wraps to 0) and 2 to bytes
 * 4-5 (wraps to 1); the second writes 99 to byte 1 (FI_ATOMIC_WRITE) and adds -1000 to bytes 6-7 (2000).
 * <p>
 * Catches {@code atomic.subword-plain-write}: a read-modify-write of the containing word that stores instead of
 * swapping writes back a neighbour's old value over its concurrent update. Called by JCStress's actor threads only,
 * one actor each, then the arbiter.
 */
@JCStressTest
@Catches("atomic.subword-plain-write")
@Description("Atomics on neighbouring 8- and 16-bit elements of one word, from two processes, both survive.")
@Outcome(id = "0, 99, 1, 2000, 1", expect = ACCEPTABLE, desc = "Both processes' updates survived, neighbours kept.")
@Outcome(id = "255, 99, .*", expect = FORBIDDEN, desc = "The first's FI_UINT8 sum was lost to the second's write.")
@Outcome(id = "0, 20, .*", expect = FORBIDDEN, desc = "The second's FI_INT8 write was lost to the first's sum.")
@Outcome(id = ".*, 65535, 2000, .*", expect = FORBIDDEN, desc = "The first's FI_UINT16 sum was lost.")
@Outcome(id = ".*, 1, 3000, .*", expect = FORBIDDEN, desc = "The second's FI_INT16 sum was lost.")
@Outcome(expect = FORBIDDEN, desc = "An update lost, a carry into a neighbour, or an untargeted byte changed.")
@State
public class SubWordAtomicNeighboursTest
{
    static
    {
        Variants.arm(SubWordAtomicNeighboursTest.class);
    }

    private static final int BYTE0 = 0;
    private static final int BYTE1 = 1;
    private static final int UNTARGETED = 2;
    private static final short UNTARGETED_BITS = 0x5AA5;
    private static final int LOW_HALF = 4;
    private static final int HIGH_HALF = 6;

    /** The operands, in native order, read by both actors: never written after class initialization. */
    private static final UnsafeBuffer OPERANDS = new UnsafeBuffer(new byte[16]);
    private static final int ONE = 0;
    private static final int NINETY_NINE = 1;
    private static final int TWO = 2;
    private static final int MINUS_THOUSAND = 4;

    static
    {
        OPERANDS.putByte(ONE, (byte)1);
        OPERANDS.putByte(NINETY_NINE, (byte)99);
        OPERANDS.putShort(TWO, (short)2);
        OPERANDS.putShort(MINUS_THOUSAND, (short)-1000);
    }

    private static final TwoMappings FILES = new TwoMappings("subword-neighbours", 4096, 64);

    private final TwoMappings.Slice slice = FILES.take();

    /** The two words, as the first process writes them before either updates them. */
    public SubWordAtomicNeighboursTest()
    {
        slice.first.putByte(BYTE0, (byte)255);
        slice.first.putByte(BYTE1, (byte)20);
        slice.first.putShort(UNTARGETED, UNTARGETED_BITS);
        slice.first.putShort(LOW_HALF, (short)65535);
        slice.first.putShortVolatile(HIGH_HALF, (short)3000);
    }

    /** The first process: FI_UINT8 sum on byte 0, then FI_UINT16 sum on bytes 4-5. */
    @Actor
    public void firstProcess()
    {
        apply(AtomicDatatype.UINT8, AtomicOp.SUM, slice.first, BYTE0, ONE);
        apply(AtomicDatatype.UINT16, AtomicOp.SUM, slice.first, LOW_HALF, TWO);
    }

    /** The second process: FI_INT8 write on byte 1, then FI_INT16 sum on bytes 6-7. */
    @Actor
    public void secondProcess()
    {
        apply(AtomicDatatype.INT8, AtomicOp.ATOMIC_WRITE, slice.second, BYTE1, NINETY_NINE);
        apply(AtomicDatatype.INT16, AtomicOp.SUM, slice.second, HIGH_HALF, MINUS_THOUSAND);
    }

    /**
     * @param r r1 byte 0 (unsigned), r2 byte 1, r3 bytes 4-5 (unsigned), r4 bytes 6-7, r5 1 when bytes 2-3 and the
     *          next word are as they were.
     */
    @Arbiter
    public void check(final IIIII_Result r)
    {
        final UnsafeBuffer memory = slice.first;
        r.r1 = memory.getByteVolatile(BYTE0) & 0xFF;
        r.r2 = memory.getByteVolatile(BYTE1);
        r.r3 = memory.getShortVolatile(LOW_HALF) & 0xFFFF;
        r.r4 = memory.getShortVolatile(HIGH_HALF);
        r.r5 = memory.getShortVolatile(UNTARGETED) == UNTARGETED_BITS && memory.getIntVolatile(8) == 0 ? 1 : 0;
        slice.release();
    }

    private static void apply(
        final AtomicDatatype type, final AtomicOp op, final AtomicBuffer target, final int index, final int operand)
    {
        final int rc = AtomicOps.apply(type, op, target, index, OPERANDS, operand, 1);
        if (rc != 0)
        {
            throw new IllegalStateException(type + " " + op + " at " + index + " returned " + rc);
        }
    }
}
