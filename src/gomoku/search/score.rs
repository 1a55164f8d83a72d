//! Search scores: a win or a loss scores beyond [`WIN_BOUND`], by its
//! distance in plies, and is stored in the table relative to the node.

/// Score of a win now; a win found `k` plies away scores `WIN - k`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const WIN_BOUND: i32 = 29_000;

/// A win or loss score stored relative to the node.
pub(super) fn to_table(score: i32, ply: i32) -> i32 {
    if score > WIN_BOUND {
        score + ply
    } else if score < -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

/// A score read from the table, relative to the root again.
pub(super) fn from_table(score: i32, ply: i32) -> i32 {
    if score > WIN_BOUND {
        score - ply
    } else if score < -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A win stored at one ply and read at another keeps its distance from
    /// the node; other scores pass unchanged.
    #[test]
    fn table_scores_are_relative_to_the_node() {
        assert_eq!(to_table(WIN - 7, 3), WIN - 4);
        assert_eq!(from_table(WIN - 4, 5), WIN - 9);
        assert_eq!(to_table(-(WIN - 7), 3), -(WIN - 4));
        assert_eq!(from_table(-(WIN - 4), 5), -(WIN - 9));
        for score in [-WIN_BOUND, -120, 0, 250, WIN_BOUND] {
            assert_eq!(from_table(to_table(score, 6), 6), score);
            assert_eq!(to_table(score, 6), score);
        }
    }
}
