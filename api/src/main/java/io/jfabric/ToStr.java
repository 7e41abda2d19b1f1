package io.jfabric;

/** STUB: replaced by the tostr work. */
public final class ToStr
{
    private ToStr()
    {
    }

    public static String toStr(final Object data)
    {
        return String.valueOf(data.getClass().getSimpleName());
    }
}
