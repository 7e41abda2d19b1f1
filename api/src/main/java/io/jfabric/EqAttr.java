package io.jfabric;

/** STUB: replaced by the event-queue work. Event queue attributes ({@code struct fi_eq_attr}). */
public final class EqAttr
{
}
