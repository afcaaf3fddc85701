// The lessons of "Learn" (learn.js): each a few tasks, each a position (Red to move, the
// person plays Red), the moves that solve it and the goal they reach ("move",
// "capture", "water", "jump", "den", "win", "guard": after it no animal of Blue's can
// walk into Red's den); optionally the rule set ("variant",
// default jungle), the moves played before the task ("before", loaded as a game) and
// moves the rules forbid there ("refused"). A lesson for experts ("advanced": true)
// stands apart, after the others. The words are in the catalogues
// (i18n/<lang>.js: lesson.<id>.title, lesson.<id>.<n>.task, lesson.<id>.<n>.hint).
// Plain JSON after "export default": tests/page_data.rs checks with the rules core that every
// solution is legal and reaches its goal. The page lists the lessons and their tasks
// from here; the back end's judge (crates/app/src/judge.rs, which reads this file when
// it is built) sets each task and judges its tries.
export default [
  {
    "id": "steps",
    "tasks": [
      {
        "fen": "c6/7/7/7/7/7/3D3/7/7 r",
        "accept": [
          "d3d4",
          "d3c3",
          "d3e3",
          "d3d2"
        ],
        "goal": "move"
      },
      {
        "fen": "c6/7/7/7/7/7/7/3W3/7 r",
        "accept": [
          "d2d3"
        ],
        "goal": "move"
      }
    ]
  },
  {
    "id": "ranks",
    "tasks": [
      {
        "fen": "l6/7/7/7/3c3/3D3/7/7/7 r",
        "accept": [
          "d4d5"
        ],
        "goal": "capture"
      },
      {
        "fen": "l6/7/7/7/3w3/3W3/7/7/7 r",
        "accept": [
          "d4d5"
        ],
        "goal": "capture"
      },
      {
        "fen": "6l/7/1CdW3/7/7/7/7/7/7 r",
        "accept": [
          "d7c7"
        ],
        "goal": "capture"
      }
    ]
  },
  {
    "id": "rat",
    "tasks": [
      {
        "fen": "6c/7/7/7/3e3/3R3/7/7/7 r",
        "accept": [
          "d4d5"
        ],
        "goal": "capture"
      },
      {
        "fen": "6c/7/7/3C3/3r3/3E3/7/7/7 r",
        "accept": [
          "d6d5"
        ],
        "goal": "capture"
      }
    ]
  },
  {
    "id": "river",
    "tasks": [
      {
        "fen": "6c/7/7/7/7/R6/7/7/7 r",
        "accept": [
          "a4b4"
        ],
        "goal": "water"
      },
      {
        "fen": "6c/7/7/7/1r5/1R5/7/7/7 r",
        "accept": [
          "b4b5"
        ],
        "goal": "capture"
      }
    ]
  },
  {
    "id": "jumps",
    "tasks": [
      {
        "fen": "6c/7/7/7/L6/7/7/7/7 r",
        "accept": [
          "a5d5"
        ],
        "goal": "jump"
      },
      {
        "fen": "6c/7/7/7/7/7/2T4/7/7 r",
        "accept": [
          "c3c7"
        ],
        "goal": "jump"
      },
      {
        "fen": "6c/7/7/7/1r1L3/7/7/7/7 r",
        "accept": [
          "d5g5"
        ],
        "goal": "jump"
      }
    ]
  },
  {
    "id": "traps",
    "tasks": [
      {
        "fen": "6c/7/7/7/7/7/7/2Ce3/7 r",
        "accept": [
          "c2d2"
        ],
        "goal": "capture"
      },
      {
        "fen": "6c/7/7/7/7/7/7/7/4lR1 r",
        "accept": [
          "f1e1"
        ],
        "goal": "capture"
      }
    ]
  },
  {
    "id": "den",
    "tasks": [
      {
        "fen": "c6/3W3/7/7/7/7/7/7/7 r",
        "accept": [
          "d8d9"
        ],
        "goal": "den"
      }
    ]
  },
  {
    "id": "win",
    "tasks": [
      {
        "fen": "7/7/7/7/3d3/3L3/7/7/7 r",
        "accept": [
          "d4d5"
        ],
        "goal": "win"
      },
      {
        "fen": "rC5/7/D6/7/7/7/7/7/7 r",
        "accept": [
          "a7a8"
        ],
        "goal": "win"
      }
    ]
  },
  {
    "id": "guard",
    "tasks": [
      {
        "fen": "7/7/7/r6/L6/7/3C3/3w3/7 r",
        "accept": [
          "d3d2"
        ],
        "goal": "guard"
      },
      {
        "fen": "7/7/7/7/7/l6/E6/7/4pD1 r",
        "accept": [
          "f1e1"
        ],
        "goal": "guard"
      }
    ]
  },
  {
    "id": "chase",
    "advanced": true,
    "tasks": [
      {
        "fen": "6l/7/1t5/7/7/7/W5R/7/7 r",
        "variant": "jungle-cn",
        "before": [
          "a3a2",
          "g9f9",
          "a2a3",
          "f9f8",
          "a3a2",
          "f8g8",
          "a2a3",
          "g8g9",
          "a3a2",
          "g9f9",
          "a2a3",
          "f9f8"
        ],
        "accept": [
          "a3b3",
          "a3a4"
        ],
        "refused": [
          "a3a2"
        ],
        "goal": "move"
      },
      {
        "fen": "6l/7/7/7/r6/7/7/7/L6 r",
        "variant": "jungle-cn",
        "before": [
          "a1a2",
          "g9f9",
          "a2b2",
          "f9f8",
          "b2b1",
          "f8g8",
          "b1a1",
          "g8g9",
          "a1a2",
          "g9f9",
          "a2b2",
          "f9f8",
          "b2b1",
          "f8g8",
          "b1a1",
          "g8g9",
          "a1a2",
          "g9f9",
          "a2b2",
          "f9f8",
          "b2b1",
          "f8g8",
          "b1a1",
          "g8g9",
          "a1a2",
          "g9f9",
          "a2b2",
          "f9f8",
          "b2b1",
          "f8g8",
          "b1a1",
          "g8g9",
          "a1a2",
          "g9f9"
        ],
        "accept": [
          "a2a3"
        ],
        "refused": [
          "a2a1",
          "a2b2"
        ],
        "goal": "move"
      }
    ]
  }
];
