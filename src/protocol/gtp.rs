//! GTP, the Go Text Protocol version 2, as Othello programs use it (Quarry,
//! GoGui, match scripts).
//!
//! Framing follows the specification: a command is `[id] name [arguments]`;
//! the answer is `=id result` or `?id error` (no space between `=` and the
//! id) followed by an empty line. Input lines are cleaned first: control
//! characters other than tab are deleted, tabs become spaces, everything
//! after `#` is dropped, and lines left empty are skipped without answer.
//! Commands are answered strictly in order; a `genmove` holds back the lines
//! after it until its move is found.
//!
//! Othello conventions: squares `a1`..`h8` in any case with row 1 at the top,
//! colours `b`/`black`/`w`/`white` in any case, passes `pass`, `PASS` or
//! `PA`. Passes may be implicit: a `play` or `genmove` for the colour not on
//! move is accepted when the side to move has no legal move (the pass is
//! inserted), and refused with `? wrong color` otherwise. `genmove` for a
//! colour without a legal move answers (and plays) `pass`. `undo` takes
//! back a whole `play` or `genmove`, the pass it inserted included. Board sizes 4, 6
//! and 8 are played (`boardsize`). `time_settings` and `time_left` set the
//! clock `genmove` plays to.
//!
//! One table, [`COMMANDS`], drives parsing, `list_commands` and
//! `known_command`.

mod commands;

use commands::find;
pub use commands::{
    COMMANDS, Command, CommandSpec, GtpError, Request, Response, parse, preprocess, starts_session,
};

use crate::bitboard::{BoardSize, squares};
use crate::color::Color;
use crate::diagram::diagram;
use crate::engine::{GoRequest, SearchEvent};
use crate::formats::spec;
use crate::formats::transcript::Token;
use crate::game::Game;
use crate::moves::Move;
use crate::protocol::GameEvent;
use crate::protocol::host::SearchHost;
use crate::protocol::{Flow, Handler};
use crate::search::{Clock, SearchResult};
use crate::square::Square;
use std::time::Duration;

/// Clock settings and what `time_left` said.
#[derive(Clone, Debug, Default, PartialEq)]
struct TimeControl {
    /// `time_settings` main time, byo-yomi time and stones, when given.
    settings: Option<(f64, f64, u32)>,
    /// `time_left` seconds and stones of each colour (black, white).
    left: [Option<(f64, u32)>; 2],
    /// Time each colour's `genmove`s took since `time_settings`.
    used: [f64; 2],
}

fn color_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl TimeControl {
    /// The clock of `color`, `None` without a time limit.
    fn clock(&self, color: Color) -> Option<Clock> {
        let clock = |seconds: f64, stones: u32| Clock {
            remaining: Duration::from_secs_f64(seconds.clamp(0.0, 1e9)),
            increment: Duration::ZERO,
            moves_to_go: (stones > 0).then_some(stones),
        };
        if let Some((main, byo_time, byo_stones)) = self.settings {
            let unlimited = (byo_time > 0.0 && byo_stones == 0) || (main <= 0.0 && byo_time <= 0.0);
            if unlimited {
                return None;
            }
        }
        if let Some((seconds, stones)) = self.left[color_index(color)] {
            return Some(clock(seconds, stones));
        }
        let (main, byo_time, byo_stones) = self.settings?;
        let remaining = main - self.used[color_index(color)];
        if remaining > 0.0 {
            Some(clock(remaining, 0))
        } else {
            Some(clock(byo_time, byo_stones))
        }
    }

    /// Counts a move that took `seconds`.
    fn spend(&mut self, color: Color, seconds: f64) {
        let index = color_index(color);
        self.used[index] += seconds;
        if let Some((left, stones)) = &mut self.left[index] {
            *left = (*left - seconds).max(0.0);
            *stones = stones.saturating_sub(1).max(u32::from(*stones > 0));
        }
    }
}

/// A `genmove` waiting for its search.
#[derive(Debug)]
struct Pending {
    id: Option<u64>,
    color: Color,
    /// `genmove` plays the move; `reg_genmove` does not.
    commit: bool,
    /// Moves of the game before the command (a pass it inserted is after).
    moves_before: usize,
}

/// The GTP handler.
pub(crate) struct Gtp {
    host: SearchHost,
    game: Game,
    time: TimeControl,
    pending: Option<Pending>,
    /// How many moves each `play` or `genmove` added to the game, the last
    /// one last: one, or two with the pass it inserted. `undo` takes back
    /// a whole command.
    added: Vec<usize>,
    rejected: bool,
}

/// The name of a move in answers: `f5` or `pass`.
fn vertex_name(mv: Move) -> String {
    match mv.square() {
        Some(square) => square.to_string(),
        None => "pass".to_string(),
    }
}

/// Black's score as GTP writes it: `B+4`, `W+2`, `0`.
fn score_text(black: i32) -> String {
    match black {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    }
}

impl Gtp {
    pub fn new(host: SearchHost) -> Gtp {
        Gtp {
            game: host.engine().game().clone(),
            host,
            time: TimeControl::default(),
            pending: None,
            added: Vec::new(),
            rejected: false,
        }
    }

    /// Runs a command: `Ok(Some(text))` answers now, `Ok(None)` later (a
    /// search runs).
    fn execute(&mut self, request: &Request) -> Result<Option<String>, GtpError> {
        let answer = |text: &str| Ok(Some(text.to_string()));
        let position = self.game.position();
        match &request.command {
            Command::ProtocolVersion => answer("2"),
            Command::Name => answer("oxello"),
            Command::Version => answer(env!("CARGO_PKG_VERSION")),
            Command::KnownCommand(name) => answer(if find(name).is_some() {
                "true"
            } else {
                "false"
            }),
            Command::ListCommands => {
                let names: Vec<&str> = COMMANDS.iter().map(|spec| spec.name).collect();
                answer(&names.join("\n"))
            }
            Command::Quit => answer(""),
            Command::BoardSize(n) => {
                let size = usize::try_from(*n)
                    .ok()
                    .and_then(BoardSize::from_n)
                    .ok_or(GtpError::UnacceptableSize)?;
                self.new_game(size);
                answer("")
            }
            Command::ClearBoard => {
                self.new_game(self.game.size());
                answer("")
            }
            Command::Komi(_) => answer(""),
            Command::Threads(n) => {
                self.host.engine_mut().set_threads(Some(*n));
                answer("")
            }
            Command::Play(color, token) => {
                self.play(*color, *token)?;
                answer("")
            }
            Command::Genmove(color) => self.genmove(request.id, *color, true),
            Command::RegGenmove(color) => self.genmove(request.id, *color, false),
            Command::Undo => {
                self.undo()?;
                answer("")
            }
            Command::ShowBoard => answer(&format!("\n{}", diagram(&position))),
            Command::TimeSettings {
                main,
                byo_time,
                byo_stones,
            } => {
                self.time = TimeControl {
                    settings: Some((*main, *byo_time, *byo_stones)),
                    ..TimeControl::default()
                };
                answer("")
            }
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                self.time.left[color_index(*color)] = Some((*seconds, *stones));
                answer("")
            }
            Command::LoadSgf { path, move_number } => {
                self.load(path, *move_number)?;
                answer("")
            }
            // A finished game scores with the empties given to the winner; an
            // unfinished one reports the disc difference on the board now
            // (giving it every empty square would be a wild overstatement).
            Command::FinalScore => {
                let (black, white) = position.disc_counts();
                let score = if position.is_game_over() {
                    position.final_score_black()
                } else {
                    black as i32 - white as i32
                };
                answer(&score_text(score))
            }
            Command::ListGames => answer("Othello"),
            Command::SetGame(name) => {
                if name.trim().eq_ignore_ascii_case("othello") {
                    answer("")
                } else {
                    Err(GtpError::UnsupportedGame)
                }
            }
            Command::RulesGameId => answer("Othello"),
            Command::RulesBoard => answer(&format!("\n{}", rules_board(&self.game))),
            Command::RulesBoardSize => answer(&self.game.size().to_string()),
            Command::RulesLegalMoves => {
                let text = if position.is_game_over() {
                    String::new()
                } else if position.must_pass() {
                    "pass".to_string()
                } else {
                    let names: Vec<String> = squares(position.legal_moves())
                        .map(|s| s.to_string())
                        .collect();
                    names.join(" ")
                };
                answer(&text)
            }
            Command::RulesSideToMove => answer(position.side.name()),
            Command::RulesFinalResult => {
                let text = match self.game.final_score_black() {
                    None => "unknown".to_string(),
                    Some(0) => "Draw".to_string(),
                    Some(s) if s > 0 => format!("Black wins by {s}"),
                    Some(s) => format!("White wins by {}", -s),
                };
                answer(&text)
            }
        }
    }

    fn new_game(&mut self, size: BoardSize) {
        self.set_game(Game::new(size));
    }

    /// Replaces the game: a new one, or one loaded.
    fn set_game(&mut self, game: Game) {
        self.game = game;
        self.added.clear();
        self.time.used = [0.0; 2];
    }

    /// Makes `game`, `self.game` with the moves of one command added, the
    /// game.
    fn commit(&mut self, game: Game) {
        self.added
            .push(game.moves().len().saturating_sub(self.game.moves().len()));
        self.game = game;
    }

    /// Takes back the last `play` or `genmove`, the pass it inserted
    /// included; before them, the moves of a loaded game one at a time.
    fn undo(&mut self) -> Result<(), GtpError> {
        let count = self.added.last().copied().unwrap_or(1);
        let mut game = self.game.clone();
        for _ in 0..count {
            game.undo().ok_or(GtpError::CannotUndo)?;
        }
        self.added.pop();
        self.game = game;
        Ok(())
    }

    /// The game with a pass inserted when `color` is not on move and the
    /// side to move is blocked; `wrong color` when it could move.
    fn turn_of(&self, color: Color) -> Result<Game, GtpError> {
        let mut game = self.game.clone();
        let position = game.position();
        if position.side != color {
            if !position.must_pass() {
                return Err(GtpError::WrongColor);
            }
            game.play(Move::Pass).map_err(|_| GtpError::IllegalMove)?;
        }
        Ok(game)
    }

    fn play(&mut self, color: Color, token: Token) -> Result<(), GtpError> {
        if self.game.is_over() {
            return Err(GtpError::IllegalMove);
        }
        let mut game = self.turn_of(color)?;
        match token {
            Token::Pass => game.play(Move::Pass).map_err(|_| GtpError::IllegalMove)?,
            Token::Square(square) => {
                game.play_square(square)
                    .map_err(|_| GtpError::IllegalMove)?;
            }
        }
        self.commit(game);
        Ok(())
    }

    fn genmove(
        &mut self,
        id: Option<u64>,
        color: Color,
        commit: bool,
    ) -> Result<Option<String>, GtpError> {
        if self.game.is_over() {
            return Ok(Some("pass".to_string()));
        }
        let mut game = self.turn_of(color)?;
        if game.position().must_pass() {
            game.play(Move::Pass).map_err(|_| GtpError::IllegalMove)?;
            if commit {
                self.commit(game);
            }
            return Ok(Some("pass".to_string()));
        }
        let request = GoRequest {
            clock: self.time.clock(color),
            ..GoRequest::default()
        };
        self.host.start(&game, request);
        self.pending = Some(Pending {
            id,
            color,
            commit,
            moves_before: self.game.moves().len(),
        });
        if commit {
            self.game = game;
        }
        Ok(None)
    }

    fn load(&mut self, path: &str, move_number: Option<usize>) -> Result<(), GtpError> {
        // A game of a file of several is named FILE:N, as on the command line.
        let mut game = spec::read_file_game(path, self.game.size())
            .map_err(|error| GtpError::CannotLoad(error.to_string()))?;
        if let Some(number) = move_number.filter(|n| *n >= 1) {
            game.truncate(number - 1);
        }
        self.set_game(game);
        Ok(())
    }

    fn finished(&mut self, result: SearchResult, out: &mut Vec<String>) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        let mv = result.best.unwrap_or(Move::Pass);
        self.time.spend(pending.color, result.elapsed.as_secs_f64());
        if pending.commit {
            if let Err(error) = self.game.play(mv) {
                log::error!("oxello: the search chose an illegal move: {error}");
            }
            let added = self.game.moves().len().saturating_sub(pending.moves_before);
            self.added.push(added);
        }
        let response = Response {
            id: pending.id,
            result: Ok(vertex_name(mv)),
        };
        out.extend(response.lines());
    }
}

/// The board for GoGui: rows from the bottom one (GoGui draws row 1 at the
/// bottom), `X` Black, `O` White, `.` empty, squares separated by spaces.
fn rules_board(game: &Game) -> String {
    let position = game.position();
    let n = position.size.n() as u8;
    let rows: Vec<String> = (0..n)
        .rev()
        .map(|row| {
            (0..n)
                .filter_map(|col| Square::from_coords(col, row))
                .map(|square| match position.disc(square) {
                    Some(color) => color.symbol(),
                    None => '.',
                })
                .map(String::from)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    rows.join("\n")
}

impl Handler for Gtp {
    fn line(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        self.rejected = true;
        let request = match parse(line) {
            None => return Flow::Continue,
            Some(Ok(request)) => request,
            Some(Err((id, error))) => {
                out.extend(
                    Response {
                        id,
                        result: Err(error),
                    }
                    .lines(),
                );
                return Flow::Continue;
            }
        };
        match self.execute(&request) {
            Ok(Some(text)) => {
                self.rejected = false;
                out.extend(
                    Response {
                        id: request.id,
                        result: Ok(text),
                    }
                    .lines(),
                );
            }
            Ok(None) => self.rejected = false,
            Err(error) => out.extend(
                Response {
                    id: request.id,
                    result: Err(error),
                }
                .lines(),
            ),
        }
        if request.command == Command::Quit {
            self.host.cancel();
            return Flow::Quit;
        }
        Flow::Continue
    }

    fn too_long(&mut self, bytes: usize, out: &mut Vec<String>) -> Flow {
        self.rejected = true;
        let response = Response {
            id: None,
            result: Err(GtpError::Syntax(format!("line of {bytes} bytes too long"))),
        };
        out.extend(response.lines());
        Flow::Continue
    }

    fn event(&mut self, generation: u64, event: GameEvent, out: &mut Vec<String>) -> Flow {
        if let Some(SearchEvent::Finished(result)) = self.host.accept(generation, event) {
            self.finished(result, out);
        }
        Flow::Continue
    }

    fn busy(&self) -> bool {
        self.pending.is_some()
    }

    fn working(&self) -> bool {
        self.host.is_active()
    }

    fn game(&self) -> Option<&Game> {
        Some(&self.game)
    }

    fn last_rejected(&self) -> bool {
        self.rejected
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineOptions, Level, Player};
    use crate::protocol::{Mode, Session};

    fn session() -> Session {
        let options = EngineOptions {
            hash_mib: 2,
            player: Player::Level(Level::new(2)),
            ..EngineOptions::default()
        };
        Session::new(Mode::Gtp, options)
    }

    #[test]
    fn quarry_handshake_and_moves() {
        let mut gtp = session();
        assert_eq!(gtp.send("protocol_version"), vec!["= 2", ""]);
        assert_eq!(gtp.send("list_games"), vec!["= Othello", ""]);
        assert_eq!(gtp.send("set_game Othello"), vec!["=", ""]);
        assert_eq!(gtp.send("set_game Go"), vec!["? unsupported game", ""]);
        assert_eq!(gtp.send("boardsize 8"), vec!["=", ""]);
        assert_eq!(gtp.send("boardsize 10"), vec!["? unacceptable size", ""]);
        assert_eq!(gtp.send("1 play black F5"), vec!["=1", ""]);
        let reply = gtp.send("2 genmove white");
        assert_eq!(reply.len(), 2);
        assert!(reply[0].starts_with("=2 "), "{reply:?}");
        assert_eq!(gtp.game().unwrap().moves().len(), 2);
        assert_eq!(gtp.send("3 play b a1"), vec!["?3 illegal move", ""]);
        assert_eq!(gtp.send("4 play w a1"), vec!["?4 wrong color", ""]);
        assert_eq!(gtp.send("known_command genmove"), vec!["= true", ""]);
        assert_eq!(gtp.send("known_command fly"), vec!["= false", ""]);
        assert_eq!(gtp.send("undo"), vec!["=", ""]);
        assert_eq!(gtp.game().unwrap().moves().len(), 1);
        assert_eq!(gtp.send("quit"), vec!["=", ""]);
        assert!(gtp.has_quit());
    }

    #[test]
    fn gogui_rules_commands() {
        let mut gtp = session();
        assert_eq!(gtp.send("boardsize 4"), vec!["=", ""]);
        assert_eq!(gtp.send("gogui-rules_board_size"), vec!["= 4", ""]);
        assert_eq!(
            gtp.send("gogui-rules_legal_moves"),
            vec!["= b1 a2 d3 c4", ""]
        );
        assert_eq!(gtp.send("gogui-rules_side_to_move"), vec!["= black", ""]);
        assert_eq!(
            gtp.send("gogui-rules_board"),
            vec!["=", ". . . .", ". X O .", ". O X .", ". . . .", ""]
        );
    }

    #[test]
    fn clocks_from_time_settings() {
        let mut time = TimeControl::default();
        assert_eq!(time.clock(Color::Black), None);
        time.settings = Some((60.0, 0.0, 0));
        assert_eq!(
            time.clock(Color::Black).unwrap().remaining,
            Duration::from_secs(60)
        );
        time.spend(Color::Black, 10.0);
        assert_eq!(
            time.clock(Color::Black).unwrap().remaining,
            Duration::from_secs(50)
        );
        time.left[1] = Some((5.0, 3));
        let white = time.clock(Color::White).unwrap();
        assert_eq!(white.moves_to_go, Some(3));
        time.settings = Some((0.0, 1.0, 0));
        assert_eq!(time.clock(Color::White), None);
        let left_only = TimeControl {
            left: [Some((30.0, 0)), None],
            ..TimeControl::default()
        };
        assert_eq!(
            left_only.clock(Color::Black).unwrap().remaining,
            Duration::from_secs(30)
        );
        assert_eq!(left_only.clock(Color::White), None);
    }
}
