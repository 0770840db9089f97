<#-- SPDX-License-Identifier: GPL-3.0-or-later -->
<#-- The app's runtime dependencies as tab-separated lines for packaging/copyright:
     groupId, artifactId, version, name, url, holders (the pom's organization, else its developers),
     licences (as the poms name them, joined by " | "). Rendered by license-maven-plugin's
     add-third-party goal, which reads each dependency's pom with its parents. -->
<#list dependencyMap as e>
<#assign p = e.getKey()/>
<#assign holders = ""/>
<#if p.organization?? && p.organization.name??><#assign holders = p.organization.name/>
<#else><#list p.developers as d><#if d.name??><#assign holders = holders + (holders?has_content?then(", ", "")) + d.name/></#if></#list></#if>
${p.groupId}	${p.artifactId}	${p.version}	${p.name!p.artifactId}	${p.url!""}	${holders}	${e.getValue()?join(" | ")}
</#list>
