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
package io.jfabric;
/**
 * A scalable endpoint ({@code fi_scalable_ep}, fi_endpoint(3) "SCALABLE ENDPOINTS"): one address with several
 * independent transmit and receive contexts, so that threads can send and receive in parallel without sharing a
 * queue. The endpoint itself carries no data; each context is an {@link Endpoint} that only sends (a transmit
 * context, {@link FidClass#TX_CTX}) or only receives (a receive context, {@link FidClass#RX_CTX}), with its own
 * completion queue and counter bindings.
 * <p>
 * The number of contexts is fixed at open by {@code ep_attr.tx_ctx_cnt} and {@code ep_attr.rx_ctx_cnt} (up to
 * {@code domain_attr.max_ep_tx_ctx} / {@code max_ep_rx_ctx}). A peer addresses receive context {@code i} with
 * {@link AddressVector#rxAddr}{@code (fiAddr, i, rxCtxBits)} when its AV was opened with {@code rx_ctx_bits} and the
 * endpoint has {@link Flags#FI_NAMED_RX_CTX}; an address without a context index reaches context 0.
 * <p>
 * Typical use: open, {@link #bind} the AV, open and enable each context (binding its CQ), {@link #enable}, then
 * {@link #getname} to publish the address. Control path; throws {@link FabricException}. Closing fails with
 * FI_EBUSY while a context is open.
 */
public interface ScalableEndpoint extends Fid
{
    /** @return a copy of the info the endpoint was opened with, as adjusted by the provider. */
    Info info();

    /**
     * {@code fi_scalable_ep_bind}: bind the address vector (flags 0) every context uses, before any context is
     * opened; or an event queue (flags 0).
     *
     * @param fid   the object.
     * @param flags 0.
     */
    void bind(Fid fid, long flags);

    /**
     * {@code fi_enable}: publish the endpoint's address; the receive contexts become reachable as each is enabled.
     * FI_ENOAV without an AV.
     */
    void enable();

    /** @return {@code fi_getname}: the endpoint's one address, which peers insert into their AVs. */
    byte[] getname();

    /**
     * {@code fi_tx_context}: open transmit context {@code index}, a send-only endpoint that uses the scalable
     * endpoint's AV. Bind a CQ (FI_TRANSMIT) or counter and enable it before sending.
     *
     * @param index   0 to tx_ctx_cnt - 1; FI_EINVAL outside, FI_EBUSY when that context is open.
     * @param attr    the context's attributes (a subset of the endpoint's caps, op_flags, size), or null to inherit.
     * @param context the application's context.
     * @return the context.
     */
    Endpoint txContext(int index, TxAttr attr, long context);

    /**
     * {@code fi_rx_context}: open receive context {@code index}, a receive-only endpoint. Bind a CQ (FI_RECV) or
     * counter and enable it; messages addressed to the context wait in the sender until it is enabled.
     *
     * @param index   0 to rx_ctx_cnt - 1; FI_EINVAL outside, FI_EBUSY when that context is open.
     * @param attr    the context's attributes, or null to inherit.
     * @param context the application's context.
     * @return the context.
     */
    Endpoint rxContext(int index, RxAttr attr, long context);
}
