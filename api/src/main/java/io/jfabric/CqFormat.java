package io.jfabric;

/**
 * Completion queue entry formats of fi_cq(3) ({@code enum fi_cq_format}).
 */
public enum CqFormat
{
    /** FI_CQ_FORMAT_UNSPEC. */
    UNSPEC(0),
    /** FI_CQ_FORMAT_CONTEXT. */
    CONTEXT(1),
    /** FI_CQ_FORMAT_MSG. */
    MSG(2),
    /** FI_CQ_FORMAT_DATA. */
    DATA(3),
    /** FI_CQ_FORMAT_TAGGED. */
    TAGGED(4);

    private static final CqFormat[] VALUES = values();

    private final int value;

    CqFormat(final int value)
    {
        this.value = value;
    }

    /**
     * @return libfabric's numeric value.
     */
    public int value()
    {
        return value;
    }

    /**
     * @return libfabric's symbolic name, such as {@code "FI_CQ_FORMAT_UNSPEC"}.
     */
    public String cName()
    {
        return "FI_CQ_FORMAT_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static CqFormat of(final int value)
    {
        for (final CqFormat v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
