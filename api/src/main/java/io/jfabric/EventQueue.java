package io.jfabric;

/** STUB: replaced by the event-queue work. An event queue ({@code struct fid_eq}, fi_eq(3)). */
public interface EventQueue extends Fid
{
}
