package io.jfabric.tools.pingpong;

import java.util.Locale;

/**
 * The two sides of a pingpong: the client sends each ping and measures the round trip; the server echoes.
 */
public enum Role
{
    /** Echoes every message back. */
    SERVER,
    /** Sends, waits for the echo, measures; prints the results. */
    CLIENT;

    /** @return the name as the command line spells it. */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the other side. */
    public Role peer()
    {
        return this == SERVER ? CLIENT : SERVER;
    }
}
