//! The search's tunable numbers in one place (as Viridithas keeps its own in
//! `search/parameters.rs`): the pruning margins, the null move's reduction, late move
//! pruning, the late move reductions and the history bonus. The search reads them from its worker's
//! `SearchParams`, never as literals, so that they can be tuned: `TUNABLES` names each
//! one with the range a tuner may try, the engine's `SearchParams` option sets them
//! for a run (`setoption name SearchParams value rfp_margin=95 lmr_base=80`), and
//! `scripts/spsa.py` tunes them in games (SPSA at a clock). `jungle bench`'s node
//! count is the signature of `DEFAULT`.

/// The search's margins, depths and reduction constants. Margins are in the
/// evaluation's centipawns; depths in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// Late move reductions from depth `lmr_min_depth`: `lmr_base / 100 + ln(depth) ×
    /// ln(move number) / (lmr_divisor / 100)`, less the move's history over
    /// `lmr_history_divisor` (the two constants in hundredths, so that every
    /// parameter is a whole number a tuner steps).
    pub lmr_min_depth: i32,
    pub lmr_base: i32,
    pub lmr_divisor: i32,
    pub lmr_history_divisor: i32,
    /// The history bonus of a quiet move that cut off at `depth` (and the malus of
    /// the quiet moves tried before it): `history_bonus_quad × depth² +
    /// history_bonus_lin × depth + history_bonus_offset`, kept within 0 and
    /// `history_bonus_max`.
    pub history_bonus_quad: i32,
    pub history_bonus_lin: i32,
    pub history_bonus_offset: i32,
    pub history_bonus_max: i32,
    /// Continuation history (the history of a quiet move after the moves one and two
    /// plies up), in percent of its value added to the move's ordering score and
    /// reduction history; 0 keeps none (and allocates no table).
    pub cont_history: i32,
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
        lmr_base: 75,
        lmr_divisor: 225,
        lmr_history_divisor: 6000,
        // 150·d − 100 up to 1500, in place of d² up to 400: the bonus grows from the
        // shallow depths on (SPRT at 10+0.1, +22.4 Elo after 700 games; CHANGES.md).
        history_bonus_quad: 0,
        history_bonus_lin: 150,
        history_bonus_offset: -100,
        history_bonus_max: 1500,
        cont_history: 100,
    };

    /// The history bonus for a cut-off at `depth` (see `history_bonus_quad`).
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_quad * depth * depth
            + self.history_bonus_lin * depth
            + self.history_bonus_offset)
            .clamp(0, self.history_bonus_max)
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

/// One parameter a tuner may change: its name (as `SearchParams` and
/// `scripts/spsa.py` spell it), the range of values it may take, and SPSA's final
/// step for it (`c_end`, OpenBench's name: about a tenth to a twentieth of the range).
#[derive(Clone, Copy)]
pub struct Tunable {
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
    pub step: i32,
    field: fn(&mut SearchParams) -> &mut i32,
}

impl Tunable {
    /// Its value in `params`.
    pub fn get(&self, params: &SearchParams) -> i32 {
        let mut copy = *params;
        *(self.field)(&mut copy)
    }

    /// Its default value.
    pub fn default_value(&self) -> i32 {
        self.get(&SearchParams::DEFAULT)
    }
}

impl std::fmt::Debug for Tunable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} [{}, {}]", self.name, self.min, self.max)
    }
}

macro_rules! tunable {
    ($name:ident, $min:expr, $max:expr, $step:expr) => {
        Tunable {
            name: stringify!($name),
            min: $min,
            max: $max,
            step: $step,
            field: |p| &mut p.$name,
        }
    };
}

/// Every parameter, in the struct's order. A range keeps the search sound (no
/// divisor reaches 0, no depth limit goes negative); the default lies inside it.
pub const TUNABLES: [Tunable; 24] = [
    tunable!(rfp_max_depth, 1, 12, 1),
    tunable!(rfp_margin, 20, 250, 10),
    tunable!(nmp_min_depth, 1, 8, 1),
    tunable!(nmp_base, 1, 6, 1),
    tunable!(nmp_depth_divisor, 1, 12, 1),
    tunable!(nmp_eval_divisor, 50, 600, 25),
    tunable!(nmp_eval_max, 0, 6, 1),
    tunable!(lmp_max_depth, 0, 10, 1),
    tunable!(lmp_base, 0, 12, 1),
    tunable!(lmp_scale, 0, 6, 1),
    tunable!(lmp_improving_base, 0, 12, 1),
    tunable!(lmp_improving_scale, 0, 6, 1),
    tunable!(futility_max_depth, 0, 10, 1),
    tunable!(futility_base, 0, 400, 15),
    tunable!(futility_scale, 20, 300, 10),
    tunable!(lmr_min_depth, 1, 8, 1),
    tunable!(lmr_base, 0, 200, 8),
    tunable!(lmr_divisor, 100, 500, 15),
    tunable!(lmr_history_divisor, 1000, 20000, 500),
    tunable!(history_bonus_quad, 0, 8, 1),
    tunable!(history_bonus_lin, 0, 400, 20),
    tunable!(history_bonus_offset, -400, 400, 25),
    // Within a tenth of the table's bound (ordering::HISTORY_MAX, 16384) so that one
    // cut-off never swings a slot across it.
    tunable!(history_bonus_max, 50, 1600, 75),
    tunable!(cont_history, 0, 200, 10),
];

impl SearchParams {
    /// `text` read as `name=value` pairs separated by spaces or commas, applied to the
    /// defaults (empty text, or `<default>`, is the defaults): the parameters, or one
    /// error that names the first wrong pair.
    pub fn parse(text: &str) -> Result<SearchParams, String> {
        let mut params = SearchParams::DEFAULT;
        let text = text.trim();
        if text == "<default>" {
            return Ok(params);
        }
        for pair in text.split([' ', ',']).filter(|p| !p.is_empty()) {
            let Some((name, value)) = pair.split_once('=') else {
                return Err(format!(
                    "search parameter '{}' needs a value (name=value)",
                    crate::text::quote(pair)
                ));
            };
            let Some(tunable) = TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name)) else {
                return Err(format!(
                    "unknown search parameter '{}' (jungle params lists them)",
                    crate::text::quote(name)
                ));
            };
            match value.parse::<i32>() {
                Ok(v) if (tunable.min..=tunable.max).contains(&v) => {
                    *(tunable.field)(&mut params) = v
                }
                _ => {
                    return Err(format!(
                        "search parameter {} takes a whole number from {} to {}, got '{}'",
                        tunable.name,
                        tunable.min,
                        tunable.max,
                        crate::text::quote(value)
                    ))
                }
            }
        }
        Ok(params)
    }

    /// The parameters that differ from the defaults, as `parse` reads them
    /// (`<default>` when none does).
    pub fn to_text(&self) -> String {
        let changed: Vec<String> = TUNABLES
            .iter()
            .filter(|t| t.get(self) != t.default_value())
            .map(|t| format!("{}={}", t.name, t.get(self)))
            .collect();
        if changed.is_empty() {
            "<default>".to_string()
        } else {
            changed.join(",")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_tunable_once_and_defaults_lie_in_range() {
        // Each tunable changes its own field and no other: set each to a distinct
        // value and read all back.
        let mut params = SearchParams::DEFAULT;
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(
                (t.min..=t.max).contains(&t.default_value()),
                "{t:?} default {}",
                t.default_value()
            );
            assert!(t.step >= 1 && t.step <= t.max - t.min, "{t:?}");
            *(t.field)(&mut params) = 1000 + i as i32;
        }
        for (i, t) in TUNABLES.iter().enumerate() {
            assert_eq!(t.get(&params), 1000 + i as i32, "{}", t.name);
        }
        // The struct has no field the table misses: its size is the table's.
        assert_eq!(
            std::mem::size_of::<SearchParams>(),
            TUNABLES.len() * std::mem::size_of::<i32>()
        );
    }

    #[test]
    fn parses_and_writes_settings() {
        assert_eq!(SearchParams::parse(""), Ok(SearchParams::DEFAULT));
        assert_eq!(SearchParams::parse("<default>"), Ok(SearchParams::DEFAULT));
        let p = SearchParams::parse("rfp_margin=95, LMR_BASE=80").expect("reads");
        assert_eq!(p.rfp_margin, 95);
        assert_eq!(p.lmr_base, 80);
        assert_eq!(p.futility_base, SearchParams::DEFAULT.futility_base);
        assert_eq!(p.to_text(), "rfp_margin=95,lmr_base=80");
        assert_eq!(SearchParams::parse(&p.to_text()), Ok(p));
        assert_eq!(SearchParams::DEFAULT.to_text(), "<default>");
        assert_eq!(
            SearchParams::parse("rfp_margin=95 bogus=3"),
            Err("unknown search parameter 'bogus' (jungle params lists them)".into())
        );
        assert_eq!(
            SearchParams::parse("lmr_divisor=0"),
            Err(
                "search parameter lmr_divisor takes a whole number from 100 to 500, got '0'".into()
            )
        );
        assert_eq!(
            SearchParams::parse("rfp_margin"),
            Err("search parameter 'rfp_margin' needs a value (name=value)".into())
        );
        assert!(SearchParams::parse("rfp_margin=x").is_err());
    }

    #[test]
    fn history_bonus_is_the_formula_within_its_bounds() {
        // The engine's: 150·depth − 100, at most 1500.
        let d = SearchParams::DEFAULT;
        assert_eq!(
            (1..=30)
                .map(|depth| d.history_bonus(depth))
                .collect::<Vec<_>>(),
            (1..=30)
                .map(|depth: i32| (150 * depth - 100).min(1500))
                .collect::<Vec<_>>()
        );
        // The old one, depth² up to 400, through the quadratic term.
        let p = SearchParams::parse(
            "history_bonus_quad=1,history_bonus_lin=0,history_bonus_offset=0,history_bonus_max=400",
        )
        .expect("reads");
        assert_eq!(p.history_bonus(1), 1);
        assert_eq!(p.history_bonus(20), 400);
        assert_eq!(p.history_bonus(21), 400);
        // A linear one with an offset, clamped at both ends.
        let p = SearchParams::parse(
            "history_bonus_quad=0,history_bonus_lin=150,history_bonus_offset=-200,history_bonus_max=1500",
        )
        .expect("reads");
        assert_eq!(p.history_bonus(1), 0);
        assert_eq!(p.history_bonus(2), 100);
        assert_eq!(p.history_bonus(11), 1450);
        assert_eq!(p.history_bonus(12), 1500);
        assert_eq!(p.history_bonus(40), 1500);
    }
}
