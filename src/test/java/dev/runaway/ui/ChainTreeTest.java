// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.ui;

import dev.runaway.view.ConsoleRow;
import dev.runaway.analysis.Chain;
import dev.runaway.analysis.Group;
import dev.runaway.analysis.GroupColumn;
import dev.runaway.analysis.GrowthFit;
import dev.runaway.analysis.GrowthShape;
import dev.runaway.model.ProcessIdentity;
import javafx.scene.control.TreeItem;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** The chains view's model without a window: laziness, identity across scans, filter, badges. */
class ChainTreeTest {

    @Test
    void fiftyThousandProcessesCostOneRowPerGroupUntilExpanded() {
        List<Chain> chains = new ArrayList<>();
        int pid = 1000;
        for (int c = 0; c < 500; c++) {
            List<Integer> pids = new ArrayList<>();
            for (int i = 0; i < 100; i++) pids.add(pid++);
            chains.add(new Chain(new ProcessIdentity(pids.get(0), 7), 100, 100, List.of("/tmp/tool"), pids));
        }
        ChainTree tree = new ChainTree();
        tree.show(List.of(group("/tmp/tool", 50_000, chains, false), group("/usr/bin/sleep", 1, List.of(), false)));
        assertThat(tree.root().getChildren()).hasSize(2);
        assertThat(tree.madeRows()).isEqualTo(2);

        TreeItem<ConsoleRow> tool = tree.root().getChildren().get(0);
        assertThat(tool.isLeaf()).isFalse();
        tool.setExpanded(true);
        assertThat(tree.madeRows()).isEqualTo(2 + 500);
        tool.getChildren().get(0).setExpanded(true);
        assertThat(tree.madeRows()).isEqualTo(2 + 500 + 100);
        assertThat(tool.getChildren().get(0).getChildren().get(5).getValue().name()).isEqualTo("pid 1005");
    }

    @Test
    void aGroupOfFiftyThousandChainsListsTheFirstAndSaysHowManyMore() {
        List<Chain> chains = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) chains.add(new Chain(new ProcessIdentity(1000 + i, 3), 1, 1, List.of("/tmp/s"), List.of(1000 + i)));
        ChainTree tree = new ChainTree();
        tree.show(List.of(group("/tmp/s", 50_000, chains, true)));
        TreeItem<ConsoleRow> g = tree.root().getChildren().get(0);
        g.setExpanded(true);
        assertThat(g.getChildren()).hasSize(ChainTree.MAX_CHAIN_ROWS + 1);
        ConsoleRow more = ChainTree.current(g.getChildren().get(ChainTree.MAX_CHAIN_ROWS));
        assertThat(more.kind()).isEqualTo(ConsoleRow.Kind.MORE);
        assertThat(more.name()).startsWith("… and 48,000 more chains");
        assertThat(GuidedStop.refusal(more)).contains("select the group");
        tree.show(tree.prepare(List.of(group("/tmp/s", 50_000, chains, true)), ""));
        assertThat(g.getChildren()).hasSize(ChainTree.MAX_CHAIN_ROWS + 1);
    }

    @Test
    void rowsKeepTheirIdentityWhileTheScanChurns() {
        Chain a = new Chain(new ProcessIdentity(200, 11), 2, 2, List.of("/tmp/a"), List.of(200, 201));
        Chain b = new Chain(new ProcessIdentity(300, 12), 1, 1, List.of("/tmp/a"), List.of(300));
        ChainTree tree = new ChainTree();
        tree.show(List.of(group("/tmp/a", 3, List.of(a, b), false), group("/tmp/b", 9, List.of(), true)));
        TreeItem<ConsoleRow> groupA = tree.find("g:/tmp/a");
        groupA.setExpanded(true);
        TreeItem<ConsoleRow> chainB = tree.find("c:300@12");
        assertThat(chainB).isNotNull();

        // The next scan: the order changes, chain a is gone, chain b grew, a new chain appears.
        Chain b2 = new Chain(new ProcessIdentity(300, 12), 2, 2, List.of("/tmp/a"), List.of(300, 301));
        Chain c = new Chain(new ProcessIdentity(400, 13), 1, 1, List.of("/tmp/a"), List.of(400));
        tree.show(List.of(group("/tmp/b", 12, List.of(), true), group("/tmp/a", 3, List.of(b2, c), false)));
        assertThat(tree.find("g:/tmp/a")).isSameAs(groupA);
        assertThat(tree.find("c:300@12")).isSameAs(chainB);
        assertThat(ChainTree.current(chainB).tasks()).isEqualTo(2);
        assertThat(tree.find("c:200@11")).as("a chain that ended").isNull();
        assertThat(tree.root().getChildren().get(0).getValue().key()).isEqualTo("g:/tmp/b");

        // A reused pid with another start time is another process: another row.
        Chain reused = new Chain(new ProcessIdentity(300, 99), 1, 1, List.of("/tmp/a"), List.of(300));
        tree.show(List.of(group("/tmp/a", 1, List.of(reused), false)));
        assertThat(tree.find("c:300@12")).isNull();
        assertThat(tree.find("c:300@99")).isNotSameAs(chainB);
    }

    @Test
    void aScanThatChangesOnlyFiguresFiresNoValueChangeForWhichTheTableWouldRebuildEveryCell() {
        Chain a = new Chain(new ProcessIdentity(200, 11), 1, 1, List.of("/tmp/a"), List.of(200));
        ChainTree tree = new ChainTree();
        tree.show(List.of(group("/tmp/a", 1, List.of(a), false)));
        TreeItem<ConsoleRow> groupA = tree.find("g:/tmp/a");
        groupA.setExpanded(true);
        List<Object> valueChanges = new java.util.ArrayList<>();
        tree.root().addEventHandler(TreeItem.valueChangedEvent(), valueChanges::add);
        List<ConsoleRow> shown = new java.util.ArrayList<>();
        ((ChainTree.RowItem) tree.find("c:200@11")).rowProperty().addListener((o, was, is) -> shown.add(is));

        Chain threaded = new Chain(new ProcessIdentity(200, 11), 1, 4, List.of("/tmp/a"), List.of(200));
        tree.show(List.of(group("/tmp/a", 4, List.of(threaded), false)));

        assertThat(valueChanges).isEmpty();
        assertThat(ChainTree.current(groupA).cells().get(GroupColumn.TASKS.ordinal())).isEqualTo("4");
        assertThat(shown).extracting(ConsoleRow::tasks).containsExactly(4.0);
        assertThat(tree.find("c:200@11").getValue().key()).isEqualTo("c:200@11");
    }

    @Test
    void theFilterKeepsMatchingGroupsAndSurvivesTheNextScan() {
        ChainTree tree = new ChainTree();
        List<Group> groups = List.of(group("/tmp/deploy.sh", 5, List.of(), true), group("/usr/bin/python3", 3, List.of(), false));
        tree.show(groups);
        tree.filter("deploy");
        assertThat(tree.root().getChildren()).extracting(i -> i.getValue().command()).containsExactly("/tmp/deploy.sh");
        tree.show(groups);
        assertThat(tree.root().getChildren()).hasSize(1);
        tree.filter("");
        assertThat(tree.root().getChildren()).hasSize(2);
    }

    @Test
    void badgesShowTheCycleAndOrphans() {
        Group recursive = new Group("/tmp/deploy.sh", 5, List.of(), false, true,
                List.of("/tmp/deploy.sh", "python3 -m unittest", "/tmp/deploy.sh"), 3, 0, new GrowthFit(GrowthShape.LINEAR, 2, 0),
                0, OptionalDouble.empty(), "", List.of(), "", -1);
        assertThat(ConsoleRow.of(recursive).badge()).isEqualTo("⟳ deploy.sh → python3 -m unittest → deploy.sh  ×3 along one line");
        assertThat(ConsoleRow.of(group("/tmp/tool", 3, List.of(), true)).badge()).isEqualTo("orphans (init)");
        assertThat(ConsoleRow.of(group("/usr/bin/sleep", 1, List.of(), false)).badge()).isEmpty();
        Chain chain = new Chain(new ProcessIdentity(50, 1), 1, 1, List.of("/tmp/tool"), List.of(50));
        assertThat(ConsoleRow.of(group("/tmp/tool", 1, List.of(chain), true), chain).name()).contains("parented to init");
    }

    static Group group(String command, int tasks, List<Chain> chains, boolean orphans) {
        return new Group(command, tasks, chains, orphans, false, List.of(), 1, tasks * 4096L,
                new GrowthFit(GrowthShape.STEADY, 0, 0), 0, OptionalDouble.empty(), "", List.of(), "", -1);
    }
}
