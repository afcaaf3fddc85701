//! The search's tunable numbers in one place (as Viridithas keeps its own in
//! `search/parameters.rs`): the pruning margins, the null move's reduction, late move
//! pruning and the late move reductions. The search reads them from its worker's
//! `SearchParams`, never as literals, so that they can be tuned (SPSA at a clock) by
//! changing values here. `jungle bench`'s node count is the signature of `DEFAULT`.

/// The search's margins, depths and reduction constants. Margins are in the
/// evaluation's centipawns; depths in plies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// Reverse futility pruning: at depth ≤ `rfp_max_depth`, a node whose eval stands
    /// `rfp_margin × (depth − improving)` above beta returns the eval.
    pub rfp_max_depth: i32,
    pub rfp_margin: i32,
    /// Null move: from depth `nmp_min_depth`, reduced by
    /// `nmp_base + depth / nmp_depth_divisor + min((eval − beta) / nmp_eval_divisor, nmp_eval_max)`.
    pub nmp_min_depth: i32,
    pub nmp_base: i32,
    pub nmp_depth_divisor: i32,
    pub nmp_eval_divisor: i32,
    pub nmp_eval_max: i32,
    /// Late move pruning: at depth ≤ `lmp_max_depth`, quiet moves after
    /// `lmp_base + lmp_scale × depth²` (improving: `lmp_improving_base +
    /// lmp_improving_scale × depth²`) are skipped.
    pub lmp_max_depth: i32,
    pub lmp_base: i32,
    pub lmp_scale: i32,
    pub lmp_improving_base: i32,
    pub lmp_improving_scale: i32,
    /// Futility pruning: at depth ≤ `futility_max_depth`, a quiet move is skipped when
    /// `eval + futility_base + futility_scale × depth ≤ alpha`.
    pub futility_max_depth: i32,
    pub futility_base: i32,
    pub futility_scale: i32,
    /// Late move reductions from depth `lmr_min_depth`: `lmr_base + ln(depth) ×
    /// ln(move number) / lmr_divisor`, less the move's history over
    /// `lmr_history_divisor`.
    pub lmr_min_depth: i32,
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    pub lmr_history_divisor: i32,
}

impl SearchParams {
    /// The engine's values.
    pub const DEFAULT: SearchParams = SearchParams {
        rfp_max_depth: 6,
        rfp_margin: 90,
        nmp_min_depth: 3,
        nmp_base: 3,
        nmp_depth_divisor: 4,
        nmp_eval_divisor: 200,
        nmp_eval_max: 2,
        lmp_max_depth: 4,
        lmp_base: 3,
        lmp_scale: 1,
        lmp_improving_base: 4,
        lmp_improving_scale: 2,
        futility_max_depth: 5,
        futility_base: 120,
        futility_scale: 90,
        lmr_min_depth: 3,
        lmr_base: 0.75,
        lmr_divisor: 2.25,
        lmr_history_divisor: 6000,
    };
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}
