//! Which of the lobby's challenges the bot takes: those that invite it first, then the
//! oldest open one, whose clock and rules it accepts; and the invitations it declines.
//! By default any live clock (no correspondence: a bot process would wait days) under
//! the two named rule sets.

use crate::game::Rules;
use jungle_core::time_control::TimeControl;
use serde::Deserialize;

/// A challenge as the lobby lists it (`GET /api/lobby`, oldest first).
#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub id: String,
    pub tc: String,
    pub rules: String,
    #[serde(default)]
    pub rated: bool,
    /// A challenge that invites this bot (the server lists them first).
    #[serde(default)]
    pub invited: bool,
}

/// What the bot plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepts {
    /// These time controls only; empty: any live clock.
    pub tcs: Vec<TimeControl>,
    pub rules: Vec<Rules>,
    pub rated: bool,
    pub casual: bool,
    /// Invitations only, none of the lobby's open challenges.
    pub invitations_only: bool,
}

impl Accepts {
    /// From the command line's texts (errors name the bad one).
    pub fn new(
        tcs: &[String],
        rules: &[String],
        rated: bool,
        casual: bool,
    ) -> Result<Accepts, String> {
        let tcs = tcs
            .iter()
            .map(|t| TimeControl::parse(t).map_err(|e| format!("--tc: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let rules = if rules.is_empty() {
            vec![Rules::default(), "jungle-cn".parse::<Rules>()?]
        } else {
            rules
                .iter()
                .map(|r| r.parse::<Rules>().map_err(|e| format!("--rules: {e}")))
                .collect::<Result<Vec<_>, _>>()?
        };
        if !rated && !casual {
            return Err("--rated-only and --casual-only together accept no game".into());
        }
        Ok(Accepts {
            tcs,
            rules,
            rated,
            casual,
            invitations_only: false,
        })
    }

    fn takes(&self, c: &Challenge) -> bool {
        let Ok(tc) = TimeControl::parse(&c.tc) else {
            return false;
        };
        let clock_ok = if self.tcs.is_empty() {
            matches!(tc, TimeControl::Clock { .. })
        } else {
            self.tcs.contains(&tc)
        };
        let rules_ok = c
            .rules
            .parse::<Rules>()
            .is_ok_and(|r| self.rules.contains(&r));
        let kind_ok = if c.rated { self.rated } else { self.casual };
        clock_ok && rules_ok && kind_ok
    }

    /// The challenges it would take: the invitations it accepts, then (unless it takes
    /// invitations only) the open ones, each in the lobby's order (oldest first).
    pub fn pick<'a>(&self, lobby: &'a [Challenge]) -> Vec<&'a Challenge> {
        let invited = lobby.iter().filter(|c| c.invited && self.takes(c));
        let open = lobby
            .iter()
            .filter(|c| !c.invited && !self.invitations_only && self.takes(c));
        invited.chain(open).collect()
    }

    /// The invitations it declines: those whose clock, rules or kind it does not take.
    pub fn declines<'a>(&self, lobby: &'a [Challenge]) -> Vec<&'a Challenge> {
        lobby
            .iter()
            .filter(|c| c.invited && !self.takes(c))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(id: &str, tc: &str, rules: &str, rated: bool) -> Challenge {
        Challenge {
            id: id.into(),
            tc: tc.into(),
            rules: rules.into(),
            rated,
            invited: false,
        }
    }

    #[test]
    fn takes_invitations_first_and_declines_those_it_does_not_accept() {
        let invited = |id: &str, tc: &str, rated: bool| Challenge {
            invited: true,
            ..challenge(id, tc, "jungle", rated)
        };
        let lobby = [
            challenge("a", "5m+3s", "jungle", false),
            invited("b", "5m+3s", false),
            invited("c", "1d", false),
            invited("d", "5m+3s", true),
        ];
        let mut casual = Accepts::new(&[], &[], false, true).unwrap();
        let ids = |v: Vec<&Challenge>| v.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(casual.pick(&lobby)), ["b", "a"]);
        assert_eq!(ids(casual.declines(&lobby)), ["c", "d"]);
        casual.invitations_only = true;
        assert_eq!(ids(casual.pick(&lobby)), ["b"]);
        assert_eq!(ids(casual.declines(&lobby)), ["c", "d"]);
    }

    #[test]
    fn takes_the_clocks_and_rules_it_accepts_oldest_first() {
        let mut dog_swims = Rules::default();
        dog_swims.moves.dog_swims = true;
        let lobby = [
            challenge("a", "1d", "jungle", false),
            challenge("b", "5m+3s", "jungle", true),
            challenge("c", "1m+0s", "jungle-cn", false),
            challenge("d", "5m+3s", &dog_swims.to_string(), false),
            challenge("e", "garbage", "jungle", false),
        ];
        let any = Accepts::new(&[], &[], true, true).unwrap();
        let ids = |a: &Accepts| {
            a.pick(&lobby)
                .iter()
                .map(|c| c.id.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(&any), ["b", "c"]);
        let blitz = Accepts::new(
            &["5m+3s".into(), "1d".into()],
            &["jungle".into()],
            true,
            true,
        )
        .unwrap();
        assert_eq!(ids(&blitz), ["a", "b"]);
        let casual = Accepts::new(&[], &[], false, true).unwrap();
        assert_eq!(ids(&casual), ["c"]);
        assert!(Accepts::new(&["5+3".into()], &[], true, true).is_err());
        assert!(Accepts::new(&[], &["chess".into()], true, true).is_err());
        assert!(Accepts::new(&[], &[], false, false).is_err());
    }
}
