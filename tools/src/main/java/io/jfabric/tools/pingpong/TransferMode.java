package io.jfabric.tools.pingpong;

/**
 * Which data-path calls pingpong uses: untagged messages (fi_send/fi_inject/fi_recv, the default, as
 * fi_pingpong's {@code -m msg}), tagged messages (fi_tsend/fi_tinject/fi_trecv with fi_pingpong's tag 1234, as
 * {@code -m tagged}), or jfabric's zero-copy claim/commit for sizes up to inject_size (larger sizes fall back to
 * fi_send). Immutable.
 */
public enum TransferMode
{
    /** fi_send / fi_inject / fi_recv. */
    MSG("--msg"),
    /** fi_tsend / fi_tinject / fi_trecv. */
    TAGGED("--tagged"),
    /** Endpoint.claim + MessageClaim.commit, received with fi_recv. */
    CLAIM("--claim");

    /** fi_pingpong's tag for tagged transfers. */
    static final long TAG = 1234;

    private final String option;

    TransferMode(final String option)
    {
        this.option = option;
    }

    /** @return the command-line option that selects this mode. */
    public String option()
    {
        return option;
    }
}
