//! What the nodes of one PostgreSQL database tell each other (`NOTIFY` on `CHANNEL`,
//! `store::Store::notify`; read by `store::listen`): a game changed on a node (its
//! events are then read from the database), or a seat's connection counts on a node.
//! One type, written and read here only.

/// The channel of the notifications.
pub const CHANNEL: &str = "jungle_online";

/// One notification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// `node` stored events of game `game`.
    Changed { game: String, node: String },
    /// On `node`, so many connections hold each seat of game `game` (red, blue).
    Presence {
        game: String,
        node: String,
        counts: [u32; 2],
    },
}

impl Notice {
    /// The node that sent it.
    pub fn node(&self) -> &str {
        match self {
            Notice::Changed { node, .. } | Notice::Presence { node, .. } => node,
        }
    }

    /// As sent: `g:<game>:<node>` or `p:<game>:<node>:<red>:<blue>` (ids and node names
    /// have no ':').
    pub fn payload(&self) -> String {
        match self {
            Notice::Changed { game, node } => format!("g:{game}:{node}"),
            Notice::Presence { game, node, counts } => {
                format!("p:{game}:{node}:{}:{}", counts[0], counts[1])
            }
        }
    }

    /// Reads a payload; `None` for anything else.
    pub fn parse(payload: &str) -> Option<Notice> {
        let parts: Vec<&str> = payload.split(':').collect();
        match parts[..] {
            ["g", game, node] => Some(Notice::Changed {
                game: game.into(),
                node: node.into(),
            }),
            ["p", game, node, red, blue] => Some(Notice::Presence {
                game: game.into(),
                node: node.into(),
                counts: [red.parse().ok()?, blue.parse().ok()?],
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_is_read_back_as_it_was_written_and_junk_is_not_read() {
        for n in [
            Notice::Changed {
                game: "abc".into(),
                node: "n1".into(),
            },
            Notice::Presence {
                game: "abc".into(),
                node: "n-2".into(),
                counts: [3, 0],
            },
        ] {
            assert_eq!(Notice::parse(&n.payload()), Some(n));
        }
        for junk in ["", "g", "g:a", "x:a:b", "p:a:b:1", "p:a:b:x:1", "g:a:b:c"] {
            assert_eq!(Notice::parse(junk), None, "{junk}");
        }
    }
}
