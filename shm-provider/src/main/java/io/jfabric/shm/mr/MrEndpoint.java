package io.jfabric.shm.mr;

import io.jfabric.Fid;
import io.jfabric.MrMode;

/**
 * What an endpoint must be for {@code fi_mr_bind(mr, ep, 0)} (FI_MR_ENDPOINT): the shm endpoint implements it.
 * <p>
 * Binding calls {@link #bindMemoryRegion(ShmMemoryRegion)}; the endpoint takes a reference on the region with
 * {@code mr.retain(...)} so the region's close fails with FI_EBUSY while the endpoint is open, and releases it when
 * it closes. With {@link MrMode#FI_MR_ENDPOINT} a region can be enabled only once bound.
 */
public interface MrEndpoint extends Fid
{
    /**
     * @return the domain the endpoint was opened from (a region binds only endpoints of its own domain).
     */
    Object domain();

    /**
     * Take the region into the endpoint, retaining it.
     *
     * @param mr the region being bound.
     */
    void bindMemoryRegion(ShmMemoryRegion mr);
}
