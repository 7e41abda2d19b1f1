package io.jfabric;

/**
 * Address vector types of fi_av(3) ({@code enum fi_av_type}).
 */
public enum AvType
{
    /** FI_AV_UNSPEC. */
    UNSPEC(0),
    /** FI_AV_MAP. */
    MAP(1),
    /** FI_AV_TABLE. */
    TABLE(2);

    private static final AvType[] VALUES = values();

    private final int value;

    AvType(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_AV_UNSPEC"}.
     */
    public String cName()
    {
        return "FI_AV_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static AvType of(final int value)
    {
        for (final AvType v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
