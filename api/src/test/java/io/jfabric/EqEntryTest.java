package io.jfabric;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EqEntryTest
{
    @Test
    void shouldSetAndClearEveryField()
    {
        final EqEntry entry = new EqEntry().set(EqEvent.AV_COMPLETE.value(), null, 0x42, 7);

        assertEquals(EqEvent.AV_COMPLETE.value(), entry.event());
        assertEquals(0x42, entry.context());
        assertEquals(7, entry.data());

        entry.clear();

        assertEquals(0, entry.event());
        assertNull(entry.fid());
        assertEquals(0, entry.context());
        assertEquals(0, entry.data());
    }

    @Test
    void shouldNameKnownEventsAndPrintUnknownOnesAsUnsigned()
    {
        assertTrue(new EqEntry().event(EqEvent.MR_COMPLETE.value()).toString().contains("FI_MR_COMPLETE"));
        assertTrue(new EqEntry().event(-1).toString().contains("4294967295"));
    }
}
