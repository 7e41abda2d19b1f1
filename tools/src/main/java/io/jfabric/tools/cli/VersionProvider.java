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
package io.jfabric.tools.cli;

import io.jfabric.Versions;
import picocli.CommandLine;

/**
 * The version every {@code jfabric} command prints for {@code --version}: the jar's Implementation-Version and the
 * libfabric API version the library follows. Picocli instantiates it; any thread.
 */
public final class VersionProvider implements CommandLine.IVersionProvider
{
    @Override
    public String[] getVersion()
    {
        final String version = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[]
        {
            "jfabric: " + (version == null ? "development build" : version),
            "libfabric api: " + Versions.FI_MAJOR_VERSION + "." + Versions.FI_MINOR_VERSION,
        };
    }
}
