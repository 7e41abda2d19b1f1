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
 * Fabric attributes ({@code struct fi_fabric_attr}, fi_fabric(3)).
 * <p>
 * A plain mutable holder: fields are set fluently on hints and read on output. Output from getinfo is
 * always a fresh copy ({@link #copy()}, like {@code fi_dupinfo}), so changing it affects nothing else.
 * Not thread safe.
 */
public final class FabricAttr
{
    private Fabric fabric;
    private String name;
    private String provName;
    private int provVersion;
    private int apiVersion;

    /**
     * An attribute set with every field unset (zero, null or UNSPEC).
     */
    public FabricAttr()
    {
    }

    /**
     * @return an open fabric to restrict getinfo to, or the open instance on output ({@code fabric}).
     */
    public Fabric fabric()
    {
        return fabric;
    }

    /**
     * @param fabric an open fabric to restrict getinfo to, or the open instance on output ({@code fabric}).
     * @return this.
     */
    public FabricAttr fabric(final Fabric fabric)
    {
        this.fabric = fabric;
        return this;
    }

    /**
     * @return the fabric name ({@code name}).
     */
    public String name()
    {
        return name;
    }

    /**
     * @param name the fabric name ({@code name}).
     * @return this.
     */
    public FabricAttr name(final String name)
    {
        this.name = name;
        return this;
    }

    /**
     * @return the provider name ({@code prov_name}).
     */
    public String provName()
    {
        return provName;
    }

    /**
     * @param provName the provider name ({@code prov_name}).
     * @return this.
     */
    public FabricAttr provName(final String provName)
    {
        this.provName = provName;
        return this;
    }

    /**
     * @return the provider version, as FI_VERSION(major, minor) ({@code prov_version}).
     */
    public int provVersion()
    {
        return provVersion;
    }

    /**
     * @param provVersion the provider version, as FI_VERSION(major, minor) ({@code prov_version}).
     * @return this.
     */
    public FabricAttr provVersion(final int provVersion)
    {
        this.provVersion = provVersion;
        return this;
    }

    /**
     * @return the libfabric API version the fabric was opened with ({@code api_version}).
     */
    public int apiVersion()
    {
        return apiVersion;
    }

    /**
     * @param apiVersion the libfabric API version the fabric was opened with ({@code api_version}).
     * @return this.
     */
    public FabricAttr apiVersion(final int apiVersion)
    {
        this.apiVersion = apiVersion;
        return this;
    }

    /**
     * A deep copy: byte arrays and nested attributes are copied; object references (open fabric, domain)
     * are shared, as in {@code fi_dupinfo}.
     *
     * @return the copy.
     */
    public FabricAttr copy()
    {
        final FabricAttr c = new FabricAttr();
        c.fabric = fabric;
        c.name = name;
        c.provName = provName;
        c.provVersion = provVersion;
        c.apiVersion = apiVersion;
        return c;
    }


    /**
     * @return the attributes as {@code fi_tostr} prints them.
     */
    public String toString()
    {
        return ToStr.toStr(this);
    }
}
