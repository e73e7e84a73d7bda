//! A game's moves with their variations, as the web board, the review, the referee
//! and PGN keep them: node 0 is the start, each node's first child continues its
//! line and the others are variations (alternatives to that child).

use crate::rules::{Move, Position};

/// A node's index in its [`Tree`]; the root (the start position) is 0.
pub type NodeId = usize;

/// The root of every tree.
pub const ROOT: NodeId = 0;

/// One node of a move tree: the move that leads to it (none at the root), its NAGs
/// (`$n`; 1 to 6 are written as `!`, `?`, `!!`, `??`, `!?`, `?!`) and the comment
/// after it (at the root: the comment before the first move).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeNode<M> {
    pub mv: Option<M>,
    pub parent: Option<NodeId>,
    /// The first child continues the line; the others are variations.
    pub children: Vec<NodeId>,
    pub nags: Vec<u8>,
    pub comment: String,
}

/// A game's moves with their variations: moves (`Move`) for a game that is
/// replayed, or SAN tokens (`String`) as read from text.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree<M = Move> {
    nodes: Vec<TreeNode<M>>,
}

impl<M> Default for Tree<M> {
    fn default() -> Self {
        Tree::new()
    }
}

impl<M> Tree<M> {
    /// A tree with its root alone.
    pub fn new() -> Tree<M> {
        Tree {
            nodes: vec![TreeNode {
                mv: None,
                parent: None,
                children: Vec::new(),
                nags: Vec::new(),
                comment: String::new(),
            }],
        }
    }

    /// The nodes, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no move.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Node `id` (panics on an id the tree never gave).
    pub fn node(&self, id: NodeId) -> &TreeNode<M> {
        &self.nodes[id]
    }

    /// Node `id`, to change its comment or NAGs.
    pub fn node_mut(&mut self, id: NodeId) -> &mut TreeNode<M> {
        &mut self.nodes[id]
    }

    /// Whether `id` names a node.
    pub fn contains(&self, id: NodeId) -> bool {
        id < self.nodes.len()
    }

    /// Adds `mv` after `parent` as its last child (a variation when it has one).
    pub fn push(&mut self, parent: NodeId, mv: M) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(TreeNode {
            mv: Some(mv),
            parent: Some(parent),
            children: Vec::new(),
            nags: Vec::new(),
            comment: String::new(),
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// The nodes from the root's child to `id` (empty for the root).
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut p = Vec::new();
        let mut n = id;
        while let Some(parent) = self.nodes[n].parent {
            p.push(n);
            n = parent;
        }
        p.reverse();
        p
    }

    /// Plies from the start to `id`.
    pub fn depth(&self, id: NodeId) -> usize {
        let mut d = 0;
        let mut n = id;
        while let Some(parent) = self.nodes[n].parent {
            d += 1;
            n = parent;
        }
        d
    }

    /// The line through `id`: the path to it, then its first children to the end.
    pub fn line(&self, id: NodeId) -> Vec<NodeId> {
        let mut l = self.path(id);
        let mut n = id;
        while let Some(&c) = self.nodes[n].children.first() {
            l.push(c);
            n = c;
        }
        l
    }

    /// The main line: the root's first children to the end.
    pub fn mainline(&self) -> Vec<NodeId> {
        self.line(ROOT)
    }

    /// The moves of the path to `id`.
    pub fn moves_to(&self, id: NodeId) -> Vec<M>
    where
        M: Clone,
    {
        self.path(id)
            .into_iter()
            .filter_map(|n| self.nodes[n].mv.clone())
            .collect()
    }

    /// Whether `id` is on the main line (the root is).
    pub fn on_mainline(&self, id: NodeId) -> bool {
        let mut n = id;
        while let Some(p) = self.nodes[n].parent {
            if self.nodes[p].children.first() != Some(&n) {
                return false;
            }
            n = p;
        }
        true
    }

    /// Removes `id` and everything after it (not the root); returns the tree's
    /// new ids of the kept nodes (`map[old]`), as the nodes are renumbered.
    pub fn remove(&mut self, id: NodeId) -> Vec<Option<NodeId>>
    where
        M: Clone,
    {
        let mut gone = vec![false; self.nodes.len()];
        if id != ROOT && id < self.nodes.len() {
            let mut stack = vec![id];
            while let Some(n) = stack.pop() {
                gone[n] = true;
                stack.extend(self.nodes[n].children.iter().copied());
            }
        }
        let mut map = vec![None; self.nodes.len()];
        let mut next = 0;
        for (old, g) in gone.iter().enumerate() {
            if !g {
                map[old] = Some(next);
                next += 1;
            }
        }
        let old = std::mem::take(&mut self.nodes);
        for (i, mut n) in old.into_iter().enumerate() {
            if gone[i] {
                continue;
            }
            n.parent = n.parent.and_then(|p| map[p]);
            n.children = n.children.iter().filter_map(|&c| map[c]).collect();
            self.nodes.push(n);
        }
        map
    }

    /// Makes the line through `id` the main line at every branch on its path.
    pub fn promote(&mut self, id: NodeId) {
        let mut n = id;
        while let Some(p) = self.nodes[n].parent {
            let kids = &mut self.nodes[p].children;
            if let Some(i) = kids.iter().position(|&c| c == n) {
                let c = kids.remove(i);
                kids.insert(0, c);
            }
            n = p;
        }
    }
}

impl Tree<Move> {
    /// The child of `parent` reached by `mv`, added as a new last child (a
    /// variation when the position already has a continuation) unless there is one.
    pub fn child_or_push(&mut self, parent: NodeId, mv: Move) -> NodeId {
        match self.nodes[parent]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].mv == Some(mv))
        {
            Some(c) => c,
            None => self.push(parent, mv),
        }
    }

    /// A tree of one line of moves.
    pub fn from_moves(moves: &[Move]) -> Tree {
        let mut t = Tree::new();
        let mut n = ROOT;
        for &m in moves {
            n = t.push(n, m);
        }
        t
    }

    /// The position at `id`, from `start`.
    pub fn position(&self, start: &Position, id: NodeId) -> Position {
        let mut p = *start;
        for m in self.moves_to(id) {
            p.do_move(m);
        }
        p
    }
}
