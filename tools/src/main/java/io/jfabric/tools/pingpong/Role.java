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
