package io.jfabric;

/**
 * An open access domain ({@code struct fid_domain}, fi_domain(3)): the resources of one provider instance from
 * which address vectors, memory regions, endpoints, completion queues and counters are opened.
 * <p>
 * Thread safe for its control calls. Closing it while objects opened from it remain open fails with
 * {@link Errno#FI_EBUSY}.
 */
public interface Domain extends Fid
{
    /**
     * @return the fabric this domain was opened from.
     */
    Fabric fabric();

    /**
     * @return a copy of the info the domain was opened with, its domain attributes as the domain applies them.
     */
    Info info();

    /**
     * @return a copy of the domain attributes in force.
     */
    DomainAttr attr();

    /**
     * {@code fi_domain_bind}: bind an event queue to the domain; with {@link Flags#FI_REG_MR} memory
     * registrations complete asynchronously on it.
     *
     * @param eq    an event queue opened from this domain's fabric.
     * @param flags 0 or {@link Flags#FI_REG_MR}; other bits give {@link Errno#FI_EBADFLAGS}.
     */
    void bind(Fid eq, long flags);

    /**
     * {@code fi_open_ops}: open a provider-specific interface by name.
     *
     * @param name    the interface's name.
     * @param flags   open flags.
     * @param context the application's context.
     * @return the interface.
     * @throws FabricException {@link Errno#FI_ENOSYS} for a name the provider does not know.
     */
    Object openOps(String name, long flags, long context);

    /**
     * {@code fi_set_ops}: install callbacks the provider invokes in place of its own behaviour. Supported:
     * {@link HmemOverrideOps#FI_SET_OPS_HMEM_OVERRIDE} with an {@link HmemOverrideOps}.
     *
     * @param name    the override's name.
     * @param flags   flags, none defined.
     * @param ops     the callbacks.
     * @param context the application's context.
     * @throws FabricException {@link Errno#FI_ENOSYS} for an override the provider does not support.
     */
    void setOps(String name, long flags, Object ops, long context);

    /**
     * {@code fi_av_open}: open (or, with a name, create or open a shared) address vector.
     *
     * @param attr    the attributes; type, count and map_addr in force are returned by the AV's attr().
     * @param context the application's context.
     * @return the address vector.
     */
    AddressVector avOpen(AvAttr attr, long context);
}
