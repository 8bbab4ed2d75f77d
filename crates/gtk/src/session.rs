//! A match being played in the window: the engine's [`Game`] (which owns every rule) plus who
//! sits where, who is a person and who is the bot, and the translated texts the window shows.
//! No GTK here: the window asks this module what to show and what to do next (the engine's
//! [`flow::next`]), and the tests play whole matches through it without a display.
//!
//! Seats: player 1 (X, GNU Backgammon's usual human) sits at the bottom, player 0 (O) at the
//! top ([`seat_of`], [`player_at`]). Against the bot, the bot is player 0. When two people play
//! at one board and the board turns ([`Session::set_turn_board`]), the player on roll sits at
//! the bottom instead: what the board shows goes through [`Session::seat_of`] and
//! [`Session::player_at`], which know who sits where now.

use cubeful_engine::game::flow::{self, Flow, Next};
use cubeful_engine::game::record::{RecordAction, ReplayError, Setup};
use cubeful_engine::game::{
    Action, Decision, DiceSource, Ending, Event, Game, GameError, GameOutcome, RandomDice, Rules,
    ScriptedDice,
};
use cubeful_engine::search::Level;
use cubeful_engine::{CubeOwner, Dice, MatchState, Player, Position, Resignation, WinKind};

use crate::board::{CubePlace, Display, Seat};
use crate::i18n::{gettext, gettext_f, ngettext_f};
use crate::settings::Settings;

/// Who plays the top seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The engine, at this level.
    Bot(Level),
    /// Another person at the same computer.
    Human,
}

/// Everything the new-match dialog asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSetup {
    /// Match length in points; 0 for a money session.
    pub length: u16,
    /// Match play: Crawford rule.
    pub crawford: bool,
    /// Money play: Jacoby rule.
    pub jacoby: bool,
    /// Money play: beavers.
    pub beavers: bool,
    pub opponent: Opponent,
    /// Names by seat (bottom, top).
    pub names: [String; 2],
    /// The dice are entered by hand.
    pub manual_dice: bool,
    /// Seed of the dice (random when `None`).
    pub seed: Option<u64>,
}

impl Default for MatchSetup {
    fn default() -> MatchSetup {
        MatchSetup {
            length: 5,
            crawford: true,
            jacoby: true,
            beavers: true,
            opponent: Opponent::Bot(Level::Expert),
            names: [default_player_name(), "Cubeful".to_string()],
            manual_dice: false,
            seed: None,
        }
    }
}

impl MatchSetup {
    /// The match a new match would be from the user's remembered choices and names (the
    /// new-match dialog's defaults), for a match that starts without the dialog: a pasted
    /// position.
    pub fn from_settings(settings: &Settings) -> MatchSetup {
        let choices = &settings.new_match;
        MatchSetup {
            length: choices.length,
            crawford: choices.crawford,
            jacoby: choices.jacoby,
            beavers: choices.beavers,
            opponent: if choices.human_vs_human {
                Opponent::Human
            } else {
                Opponent::Bot(settings.level())
            },
            names: seat_names(
                &settings.player_name,
                &settings.opponent_name,
                choices.human_vs_human,
            ),
            manual_dice: choices.manual_dice,
            seed: None,
        }
    }

    /// The dice of a new match of this setup: entered by hand, or random from its seed (a
    /// fresh one when it has none).
    pub fn dice_source(&self) -> Box<dyn DiceSource> {
        if self.manual_dice {
            Box::new(ScriptedDice::new(Vec::<Dice>::new()))
        } else {
            Box::new(RandomDice::new(self.seed.unwrap_or_else(rand::random)))
        }
    }

    /// The engine's rules for this setup.
    pub fn rules(&self) -> Rules {
        Rules {
            match_length: self.length,
            crawford: self.crawford,
            jacoby: self.jacoby,
            beavers: self.beavers,
        }
    }
}

/// The names of the bottom and top seats from the names typed (trimmed; empty: the system
/// user's name for you, "Player 2" for another person, "Cubeful" for the bot).
pub fn seat_names(you: &str, other: &str, human_vs_human: bool) -> [String; 2] {
    let (you, other) = (you.trim(), other.trim());
    [
        if you.is_empty() {
            default_player_name()
        } else {
            you.to_string()
        },
        if !other.is_empty() {
            other.to_string()
        } else if human_vs_human {
            gettext("Player 2")
        } else {
            "Cubeful".to_string()
        },
    ]
}

/// The player sitting at `seat`.
pub fn player_at(seat: Seat) -> Player {
    match seat {
        Seat::Bottom => Player::One,
        Seat::Top => Player::Zero,
    }
}

/// The seat of `player`.
pub fn seat_of(player: Player) -> Seat {
    match player {
        Player::One => Seat::Bottom,
        Player::Zero => Seat::Top,
    }
}

/// A match or session being played.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    setup: MatchSetup,
    /// The texts of everything that happened, newest last.
    log: Vec<String>,
    /// The last roll played in the game and who played it (shown until the next roll).
    last_roll: Option<(Player, Dice)>,
    /// Two people play: the board turns to the player on roll.
    turn_board: bool,
}

impl Session {
    /// A new match or session; the first game starts at once (with its opening roll unless
    /// the dice are entered by hand).
    pub fn new(setup: MatchSetup) -> Result<Session, GameError> {
        let dice = setup.dice_source();
        let game = Game::new(setup.rules(), dice)?;
        let mut session = Session::from_game(setup, game);
        let events = session.game.new_game()?;
        session.record(&events);
        Ok(session)
    }

    /// Goes on with `game` (a match already under way, with its own dice), seated and named as
    /// `setup` says. The setup's rules and dice options are not applied: the game has its own.
    pub fn from_game(setup: MatchSetup, game: Game) -> Session {
        Session {
            game,
            setup,
            log: Vec::new(),
            last_roll: None,
            turn_board: false,
        }
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The setup the match was started with.
    pub fn setup(&self) -> &MatchSetup {
        &self.setup
    }

    /// The name of `player`.
    pub fn name(&self, player: Player) -> &str {
        &self.setup.names[seat_of(player).index()]
    }

    /// True if `player` is the bot.
    pub fn is_bot(&self, player: Player) -> bool {
        matches!(self.setup.opponent, Opponent::Bot(_)) && player == Player::Zero
    }

    /// The bot's level, if there is a bot.
    pub fn bot_level(&self) -> Option<Level> {
        match self.setup.opponent {
            Opponent::Bot(level) => Some(level),
            Opponent::Human => None,
        }
    }

    /// Changes the bot's level from the next decision on.
    pub fn set_bot_level(&mut self, level: Level) {
        if let Opponent::Bot(_) = self.setup.opponent {
            self.setup.opponent = Opponent::Bot(level);
        }
    }

    /// The texts of what happened so far, oldest first.
    pub fn log(&self) -> &[String] {
        &self.log
    }

    /// Who plays which side and what happens by itself: the bot (if any) plays player 0;
    /// people roll by a click; the dice may be entered by hand; the next game of the match
    /// starts by itself if `auto_next_game` (the window's preference).
    pub fn flow(&self, auto_next_game: bool) -> Flow {
        Flow {
            computer: [self.is_bot(Player::Zero), self.is_bot(Player::One)],
            auto_roll: false,
            manual_dice: self.setup.manual_dice,
            auto_next_game,
        }
    }

    /// What happens next ([`flow::next`]); `auto_next_game` as in [`Session::flow`].
    pub fn next(&self, auto_next_game: bool) -> Next {
        flow::next(&self.game, &self.flow(auto_next_game))
    }

    /// The person who has to act now (not the bot), if any.
    pub fn human_to_act(&self) -> Option<Player> {
        self.next(false).human()
    }

    /// `player` does `action`. Rolling with manual dice needs [`Session::roll_dice`].
    pub fn act(&mut self, player: Player, action: Action) -> Result<Vec<Event>, GameError> {
        let events = self.game.apply(player, action)?;
        self.record(&events);
        Ok(events)
    }

    /// `player` rolls `dice` entered by hand (for the opening roll: top player's die first).
    pub fn roll_dice(&mut self, player: Player, dice: Dice) -> Result<Vec<Event>, GameError> {
        let events = self.game.roll_dice(player, dice)?;
        self.record(&events);
        Ok(events)
    }

    /// Throws the opening roll from the dice (random dice).
    pub fn opening_roll(&mut self) -> Result<Vec<Event>, GameError> {
        let events = self.game.roll(Player::One)?;
        self.record(&events);
        Ok(events)
    }

    /// Starts the next game.
    pub fn next_game(&mut self) -> Result<Vec<Event>, GameError> {
        let events = self.game.new_game()?;
        self.record(&events);
        Ok(events)
    }

    /// Stores (or clears) the analysis of entry `entry` of game `game` of the record (both
    /// from 0); the play is not changed. `false` when there is no such entry.
    pub fn set_analysis(
        &mut self,
        game: usize,
        entry: usize,
        analysis: Option<Box<cubeful_engine::game::record::ActionAnalysis>>,
    ) -> bool {
        self.game.set_analysis(game, entry, analysis)
    }

    /// A new match or session playing on from `position` (seen from the player on roll) in
    /// the match state `state` — the match length, score, cube and player on roll of a pasted
    /// GNU Backgammon ID or XGID — seated and named as `setup` says, with its dice options.
    pub fn from_position(
        setup: MatchSetup,
        position: Position,
        state: MatchState,
    ) -> Result<Session, GameError> {
        let mut setup = setup;
        setup.length = state.match_length;
        if state.is_money() {
            setup.jacoby = state.jacoby;
        }
        let dice = setup.dice_source();
        let game = Game::from_position(setup.rules(), position, state, dice)?;
        let mut session = Session::from_game(setup, game);
        session
            .log
            .push(gettext("Play goes on from a position set up."));
        Ok(session)
    }

    /// Puts the checkers of the game in progress where `position` says (seen from the player
    /// on roll, who stays on roll; the cube stays as it is; the dice are to be rolled), as a
    /// set-up in the record.
    pub fn set_up_position(&mut self, position: Position) -> Result<Vec<Event>, GameError> {
        let setup = Setup {
            position,
            on_roll: self.game.on_roll(),
            cube_log2: self.game.cube_value().trailing_zeros() as u8,
            cube_owner: self.game.cube_owner(),
            dice: None,
        };
        let events = self.game.set_up(&setup)?;
        self.last_roll = None;
        self.record(&events);
        Ok(events)
    }

    /// Sets up the game in progress as `setup` says (the checkers seen from the player on
    /// roll, who is on roll, the cube, the dice if rolled), as a set-up in the record.
    pub fn set_up(&mut self, setup: &Setup) -> Result<Vec<Event>, GameError> {
        let events = self.game.set_up(setup)?;
        self.last_roll = None;
        self.record(&events);
        Ok(events)
    }

    /// The match cut after entry `entry` of game `game` (both from 0; the later entries and
    /// games are dropped), with the same players and a fresh dice source, to play on from
    /// there. Fails only when the record cannot be replayed.
    pub fn play_on_from(&self, game: usize, entry: usize) -> Result<Session, ReplayError> {
        let mut record = self.game.record().clone();
        record.truncate_at(game, entry + 1);
        let dice: Box<dyn DiceSource> = if self.setup.manual_dice {
            Box::new(ScriptedDice::new(Vec::<Dice>::new()))
        } else {
            Box::new(RandomDice::new(rand::random()))
        };
        let game_now = Game::from_record(&record, dice)?;
        let mut session = Session::from_game(self.setup.clone(), game_now);
        session.log = self.log.clone();
        session.log.push(gettext_f(
            "Play goes on from game {}, action {}.",
            &[&(game + 1).to_string(), &(entry + 1).to_string()],
        ));
        Ok(session)
    }

    /// The legal plays when a person has to move, with that person.
    pub fn human_move(&self) -> Option<(Player, Dice)> {
        match self.game.decision() {
            Decision::Move { player, dice } if !self.is_bot(player) => Some((player, dice)),
            _ => None,
        }
    }

    /// With `on`, the board turns to the player on roll when both players are people (the
    /// preference); with a bot at the board the seats never change.
    pub fn set_turn_board(&mut self, on: bool) {
        self.turn_board = on;
    }

    /// The player at the bottom of the board now: the player on roll when two people play
    /// and the board turns, else player 1.
    pub fn bottom_player(&self) -> Player {
        if self.turn_board && self.setup.opponent == Opponent::Human {
            self.game.on_roll()
        } else {
            Player::One
        }
    }

    /// The seat of `player` now ([`Session::bottom_player`] sits at the bottom).
    pub fn seat_of(&self, player: Player) -> Seat {
        if player == self.bottom_player() {
            Seat::Bottom
        } else {
            Seat::Top
        }
    }

    /// The player at `seat` now.
    pub fn player_at(&self, seat: Seat) -> Player {
        match seat {
            Seat::Bottom => self.bottom_player(),
            Seat::Top => self.bottom_player().other(),
        }
    }

    /// The names in the preferences changed from `old` to `new` (each `[you, the other
    /// person]`, as a new match seats them: you are player 1, the other person player 0): a
    /// person whose name is the old one takes the new one; the bot keeps its name, and so does
    /// a person named otherwise (a match opened from a file). True if a name changed.
    pub fn rename_people(&mut self, old: &[String; 2], new: &[String; 2]) -> bool {
        let mut changed = false;
        for (i, player) in [Player::One, Player::Zero].into_iter().enumerate() {
            if self.is_bot(player) || old[i] == new[i] || new[i].is_empty() {
                continue;
            }
            let name = &mut self.setup.names[seat_of(player).index()];
            if *name != old[i] {
                continue;
            }
            *name = new[i].clone();
            changed = true;
        }
        changed
    }

    /// The position seen from the bottom player.
    pub fn bottom_position(&self) -> Position {
        let p = self.game.position();
        if self.game.on_roll() == self.bottom_player() {
            p
        } else {
            p.swap()
        }
    }

    /// What the board should show. `thinking`: the bot is deciding (a prompt in its half).
    pub fn display(&self, thinking: bool) -> Display {
        let game = &self.game;
        let decision = game.decision();
        let score = game.score();
        let in_game = !matches!(
            decision,
            Decision::NewGame | Decision::MatchOver { .. } | Decision::OpeningRoll
        );
        let seat = |p: Player| self.seat_of(p);
        let dice = match decision {
            Decision::Move { player, dice } => Some((seat(player), dice)),
            // The dice of the last turn stay on the board until the next player rolls.
            Decision::Roll { player, .. } => self
                .last_roll
                .filter(|(roller, _)| *roller != player)
                .map(|(roller, dice)| (seat(roller), dice)),
            _ => None,
        };
        let cube = match decision {
            Decision::AnswerDouble { player, cube, .. } => {
                Some((cube, CubePlace::Offered(seat(player.other()))))
            }
            _ => Some((
                game.cube_value(),
                match game.cube_owner() {
                    CubeOwner::Centered => CubePlace::Centre,
                    CubeOwner::Owned(p) => CubePlace::Owned(seat(p)),
                },
            )),
        };
        let resignation = match decision {
            Decision::AnswerResignation {
                player,
                resignation,
            } => Some((seat(player.other()), resignation as u8)),
            _ => None,
        };
        let human = self.human_to_act();
        let turn = match decision {
            Decision::Move { player, .. } if human == Some(player) => Some(seat(player)),
            _ => None,
        };
        let roll = match (decision, self.next(false)) {
            (Decision::Roll { player, .. }, _) if human == Some(player) => Some(seat(player)),
            (Decision::OpeningRoll, Next::OpeningRoll) => Some(Seat::Bottom),
            (Decision::NewGame, _) => Some(Seat::Bottom),
            _ => None,
        };
        let prompt = self.prompt(thinking);
        let (bottom, top) = (self.player_at(Seat::Bottom), self.player_at(Seat::Top));
        Display {
            position: self.bottom_position(),
            names: [self.name(bottom).to_string(), self.name(top).to_string()],
            scores: [
                u32::from(score[bottom.index()]),
                u32::from(score[top.index()]),
            ],
            match_length: game.rules().match_length,
            crawford: in_game && game.is_crawford_game(),
            on_roll: in_game.then(|| seat(game.on_roll())),
            dice,
            cube,
            cube_live: !game.is_crawford_game(),
            resignation,
            turn,
            roll,
            prompt,
            idle: false,
            last_move: self.last_move(),
        }
    }

    /// The last move made in the game in progress (none once a new game starts).
    fn last_move(&self) -> Option<crate::board::model::LastMove> {
        let game = self.game.record().games.last()?;
        game.entries.iter().rev().find_map(|e| match &e.action {
            RecordAction::Move { player, mv, .. } if !mv.is_empty() => {
                Some(crate::review::last_move(self.seat_of(*player), mv))
            }
            _ => None,
        })
    }

    /// The short text on the board, and the half it goes in.
    fn prompt(&self, thinking: bool) -> Option<(Seat, String)> {
        let decision = self.game.decision();
        if thinking && !matches!(decision, Decision::Move { .. }) {
            // (While the bot moves, its dice are in that half and the header shows a spinner.)
            if let Some(p) = decision.player() {
                return Some((self.seat_of(p), gettext("Thinking…")));
            }
        }
        match (decision, self.next(false)) {
            (Decision::Roll { player, may_double }, Next::HumanDecides(_)) => Some((
                self.seat_of(player),
                if may_double {
                    gettext("Click to roll, or on the cube to double")
                } else {
                    gettext("Click to roll")
                },
            )),
            (Decision::OpeningRoll, Next::OpeningRoll) => {
                Some((Seat::Bottom, gettext("Click to throw the opening roll")))
            }
            (Decision::AnswerDouble { player, .. }, Next::HumanDecides(_)) => Some((
                self.seat_of(player),
                gettext("Click the cube to take, right-click to drop"),
            )),
            (Decision::AnswerResignation { player, .. }, Next::HumanDecides(_)) => Some((
                self.seat_of(player),
                gettext("Click the flag to accept, right-click to reject"),
            )),
            (Decision::NewGame, _) => Some((Seat::Bottom, gettext("Click for the next game"))),
            _ => None,
        }
    }

    /// One sentence saying who has to do what.
    pub fn status(&self) -> String {
        let name = |p: Player| self.name(p).to_string();
        match self.game.decision() {
            Decision::NewGame => match self.game.outcome() {
                Some(outcome) => self.outcome_text(&outcome),
                None => gettext("Start a new match with Ctrl+N."),
            },
            Decision::MatchOver { winner } => gettext_f("{} won the match.", &[&name(winner)]),
            Decision::OpeningRoll => gettext("The opening roll decides who starts."),
            Decision::Roll { player, may_double } => {
                if self.is_bot(player) {
                    gettext_f("{} is on roll.", &[&name(player)])
                } else if may_double {
                    gettext_f("{}: roll (Ctrl+R) or double (Ctrl+D).", &[&name(player)])
                } else {
                    gettext_f("{}: roll the dice (Ctrl+R).", &[&name(player)])
                }
            }
            Decision::Move { player, dice } => {
                if self.is_bot(player) {
                    gettext_f("{} is moving.", &[&name(player)])
                } else {
                    gettext_f(
                        "{}: move {} — drag the checkers, then click the dice.",
                        &[&name(player), &dice_text(dice)],
                    )
                }
            }
            Decision::AnswerDouble {
                player,
                cube,
                may_beaver,
            } => {
                let c = cube.to_string();
                if self.is_bot(player) {
                    gettext_f("{} considers the double to {}.", &[&name(player), &c])
                } else if may_beaver {
                    gettext_f(
                        "{}: take (Ctrl+T), drop (Ctrl+P) or beaver the double to {}.",
                        &[&name(player), &c],
                    )
                } else {
                    gettext_f(
                        "{}: take (Ctrl+T) or drop (Ctrl+P) the double to {}.",
                        &[&name(player), &c],
                    )
                }
            }
            Decision::AnswerResignation {
                player,
                resignation,
            } => gettext_f(
                "{}: accept (Ctrl+T) or reject (Ctrl+P) the offer to resign {}.",
                &[&name(player), &resignation_text(resignation)],
            ),
        }
    }

    /// "Anna wins 2 points (gammon)."
    pub fn outcome_text(&self, outcome: &GameOutcome) -> String {
        let winner = self.name(outcome.winner).to_string();
        let how = match outcome.ending {
            Ending::BearOff(WinKind::Single) => gettext("single game"),
            Ending::BearOff(WinKind::Gammon) => gettext("gammon"),
            Ending::BearOff(WinKind::Backgammon) => gettext("backgammon"),
            Ending::Dropped => gettext("double dropped"),
            Ending::Resigned(_) => gettext("resignation"),
        };
        ngettext_f(
            "{} wins {} point ({}).",
            "{} wins {} points ({}).",
            outcome.points,
            &[&winner, &outcome.points.to_string(), &how],
        )
    }

    fn record(&mut self, events: &[Event]) {
        for e in events {
            match *e {
                Event::GameStarted { .. } => self.last_roll = None,
                // The dice as played (an opening roll is played by the starter, higher die
                // first).
                Event::Moved { player, dice, .. } | Event::CannotMove { player, dice } => {
                    self.last_roll = Some((player, dice));
                }
                _ => {}
            }
            if let Some(text) = self.event_text(e) {
                self.log.push(text);
            }
        }
    }

    /// A sentence for the log, for the events worth telling.
    pub fn event_text(&self, event: &Event) -> Option<String> {
        let name = |p: Player| self.name(p).to_string();
        Some(match event {
            Event::GameStarted {
                number, crawford, ..
            } => {
                if *crawford {
                    gettext_f("Game {} starts: the Crawford game.", &[&number.to_string()])
                } else {
                    gettext_f("Game {} starts.", &[&number.to_string()])
                }
            }
            Event::OpeningTie { die } => {
                gettext_f("Both players threw {}: again.", &[&die.to_string()])
            }
            Event::OpeningRoll { dice, starter } => gettext_f(
                "{} throws {}, {} throws {}: {} starts.",
                &[
                    &name(Player::Zero),
                    &dice.first().to_string(),
                    &name(Player::One),
                    &dice.second().to_string(),
                    &name(*starter),
                ],
            ),
            Event::Rolled { player, dice } => {
                gettext_f("{} rolls {}.", &[&name(*player), &dice_text(*dice)])
            }
            Event::Moved { player, text, .. } => gettext_f("{} plays {}.", &[&name(*player), text]),
            Event::CannotMove { player, dice } => gettext_f(
                "{} rolls {} and cannot move.",
                &[&name(*player), &dice_text(*dice)],
            ),
            Event::Doubled { player, cube } => {
                gettext_f("{} doubles to {}.", &[&name(*player), &cube.to_string()])
            }
            Event::Took { player, .. } => gettext_f("{} takes.", &[&name(*player)]),
            Event::Beavered {
                player,
                cube,
                raccoon,
            } => {
                if *raccoon {
                    gettext_f("{} raccoons to {}.", &[&name(*player), &cube.to_string()])
                } else {
                    gettext_f("{} beavers to {}.", &[&name(*player), &cube.to_string()])
                }
            }
            Event::Dropped { player, .. } => gettext_f("{} drops.", &[&name(*player)]),
            Event::ResignationOffered {
                player,
                resignation,
            } => gettext_f(
                "{} offers to resign {}.",
                &[&name(*player), &resignation_text(*resignation)],
            ),
            Event::ResignationAccepted { player, .. } => {
                gettext_f("{} accepts the resignation.", &[&name(*player)])
            }
            Event::ResignationRejected { player, .. } => {
                gettext_f("{} rejects the resignation.", &[&name(*player)])
            }
            Event::GameOver(outcome) => self.outcome_text(outcome),
            Event::MatchOver { winner, score } => gettext_f(
                "{} wins the match {}–{}.",
                &[
                    &name(*winner),
                    &score[winner.index()].to_string(),
                    &score[winner.other().index()].to_string(),
                ],
            ),
        })
    }
}

/// The translated name of a playing level.
pub fn level_name(level: Level) -> String {
    match level {
        Level::Beginner => gettext("Beginner"),
        Level::Casual => gettext("Casual"),
        Level::Intermediate => gettext("Intermediate"),
        Level::Advanced => gettext("Advanced"),
        Level::Expert => gettext("Expert"),
        Level::WorldClass => gettext("World Class"),
        Level::Supremo => gettext("Supremo"),
        Level::Grandmaster => gettext("Grandmaster"),
    }
}

/// The name of the person at the computer: the account's real name, or its login name.
pub fn default_player_name() -> String {
    let real = gtk::glib::real_name().to_string_lossy().trim().to_string();
    if !real.is_empty() && real != "Unknown" {
        return real;
    }
    let user = gtk::glib::user_name().to_string_lossy().trim().to_string();
    if user.is_empty() {
        gettext("Player 1")
    } else {
        user
    }
}

/// "6-1".
pub fn dice_text(dice: Dice) -> String {
    format!("{}-{}", dice.first(), dice.second())
}

/// "a single game", "a gammon", "a backgammon" (translated).
pub fn resignation_text(r: Resignation) -> String {
    match r {
        Resignation::Single => gettext("a single game"),
        Resignation::Gammon => gettext("a gammon"),
        Resignation::Backgammon => gettext("a backgammon"),
    }
}

/// The translated message for an action the engine refused.
pub fn error_text(e: &GameError) -> String {
    match e {
        GameError::NoGame => gettext("No game is being played."),
        GameError::GameInProgress => gettext("A game is still being played."),
        GameError::GameOver => gettext("The game is over."),
        GameError::MatchOver { .. } => gettext("The match is over."),
        GameError::NotYourTurn { .. } => gettext("It is not your turn."),
        GameError::OpeningRollPending => gettext("The opening roll has not been thrown yet."),
        GameError::MustRollFirst => gettext("Roll the dice first."),
        GameError::AlreadyRolled => gettext("The dice are already rolled."),
        GameError::DoublePending => gettext("A double must be answered first."),
        GameError::NoDoubleOffered => gettext("No double has been offered."),
        GameError::ResignationPending => gettext("A resignation must be answered first."),
        GameError::NoResignationOffered => gettext("No resignation has been offered."),
        GameError::CubeOwnedByOpponent => gettext("Your opponent owns the cube."),
        GameError::CrawfordGame => gettext("There is no doubling in the Crawford game."),
        GameError::CubeAtMaximum(_) => gettext("The cube cannot go any higher."),
        GameError::BeaverInMatch => gettext("Beavers are not allowed in match play."),
        GameError::BeaversOff => gettext("Beavers are not allowed in this session."),
        GameError::TooManyBeavers(_) => gettext("No more beavers are allowed."),
        GameError::IllegalMove(_) | GameError::NotALegalMove { .. } => {
            gettext("That move is not legal.")
        }
        GameError::ResignationRejectedBefore(_) => {
            gettext("That resignation was rejected already; offer more or play on.")
        }
        GameError::NoDice => gettext("Enter the dice first."),
        GameError::InvalidRules(_) | GameError::InvalidSetup(_) => {
            gettext("These match settings are not possible.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::analysis::bot::Bot;
    use cubeful_engine::eval::Nets;
    use cubeful_engine::search::Search;
    use std::sync::Arc;

    fn setup(length: u16, opponent: Opponent) -> MatchSetup {
        MatchSetup {
            length,
            opponent,
            names: ["Ann".into(), "Bot".into()],
            seed: Some(7),
            ..MatchSetup::default()
        }
    }

    #[test]
    fn seats() {
        assert_eq!(player_at(seat_of(Player::Zero)), Player::Zero);
        assert_eq!(seat_of(Player::One), Seat::Bottom);
    }

    #[test]
    fn a_match_starts_with_the_opening_roll() {
        let s = Session::new(setup(3, Opponent::Bot(Level::Beginner))).unwrap();
        assert!(s.log().iter().any(|l| l.contains("starts")));
        match s.game().decision() {
            Decision::Move { player, .. } => {
                let d = s.display(false);
                assert_eq!(d.dice.unwrap().0, seat_of(player));
                assert_eq!(d.on_roll, Some(seat_of(player)));
                let decision = s.game().decision();
                if player == Player::One {
                    assert_eq!(s.next(false), Next::HumanDecides(decision));
                    assert_eq!(s.human_to_act(), Some(Player::One));
                    assert_eq!(d.turn, Some(Seat::Bottom));
                } else {
                    assert_eq!(s.next(false), Next::BotDecides(decision));
                    assert_eq!(s.human_to_act(), None);
                    assert_eq!(d.turn, None);
                }
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(s.display(false).match_length, 3);
    }

    #[test]
    fn manual_dice_wait_for_the_opening_roll() {
        let mut st = setup(0, Opponent::Human);
        st.manual_dice = true;
        let mut s = Session::new(st).unwrap();
        assert_eq!(s.next(false), Next::EnterDice(None));
        s.roll_dice(Player::One, Dice::new(3, 5).unwrap()).unwrap();
        // O threw 3, X threw 5: X (bottom) starts with 5-3... the dice keep their order.
        assert_eq!(s.next(false).human(), Some(Player::One));
        assert!(s.human_move().is_some());
    }

    #[test]
    fn refused_actions_leave_the_game_unchanged() {
        let mut s = Session::new(setup(3, Opponent::Human)).unwrap();
        let before = s.game().match_state();
        let (player, _) = s.human_move().unwrap();
        assert!(s.act(player, Action::Roll).is_err());
        assert!(s.act(player.other(), Action::Double).is_err());
        assert_eq!(s.game().match_state(), before);
        let e = s.act(player, Action::Take).unwrap_err();
        assert!(!error_text(&e).is_empty());
    }

    #[test]
    fn cube_and_resignation_on_the_board() {
        let mut s = Session::new(setup(5, Opponent::Human)).unwrap();
        let (mover, dice) = s.human_move().unwrap();
        let best = cubeful_engine::legal_moves(&s.game().position(), dice)[0];
        s.act(mover, Action::Move(best.mv)).unwrap();
        let roller = mover.other();
        assert_eq!(s.display(false).cube, Some((1, CubePlace::Centre)));
        assert_eq!(s.display(false).roll, Some(seat_of(roller)));
        // A double is offered: the cube is in the doubler's half at its new value.
        s.act(roller, Action::Double).unwrap();
        let d = s.display(false);
        assert_eq!(d.cube, Some((2, CubePlace::Offered(seat_of(roller)))));
        assert_eq!(d.prompt.unwrap().0, seat_of(mover));
        assert!(s.status().contains("take"));
        // Taken: the taker owns it.
        s.act(mover, Action::Take).unwrap();
        assert_eq!(
            s.display(false).cube,
            Some((2, CubePlace::Owned(seat_of(mover))))
        );
        // A resignation on offer shows its flag in the answerer's view.
        s.act(roller, Action::Resign(Resignation::Gammon)).unwrap();
        let d = s.display(false);
        assert_eq!(d.resignation, Some((seat_of(roller), 2)));
        s.act(mover, Action::RejectResignation).unwrap();
        assert_eq!(s.display(false).resignation, None);
        assert!(s.log().iter().any(|l| l.contains("rejects")));
    }

    #[test]
    fn the_dice_stay_until_the_next_roll() {
        let mut s = Session::new(setup(5, Opponent::Human)).unwrap();
        let (mover, dice) = s.human_move().unwrap();
        let best = cubeful_engine::legal_moves(&s.game().position(), dice)[0];
        s.act(mover, Action::Move(best.mv)).unwrap();
        // The other player is to roll: the mover's dice are still on the board, in his half.
        assert_eq!(s.display(false).dice, Some((seat_of(mover), dice)));
        assert_eq!(s.display(true).dice, Some((seat_of(mover), dice)));
        // A double and a take do not take them away; the next roll replaces them.
        s.act(mover.other(), Action::Double).unwrap();
        assert_eq!(s.display(false).dice, None, "the cube is offered");
        s.act(mover, Action::Take).unwrap();
        assert_eq!(s.display(false).dice, Some((seat_of(mover), dice)));
        s.act(mover.other(), Action::Roll).unwrap();
        let (roller, rolled) = s.human_move().unwrap();
        assert_eq!(roller, mover.other());
        assert_eq!(s.display(false).dice, Some((seat_of(roller), rolled)));
        // A new game starts without dice.
        s.act(roller, Action::Resign(Resignation::Single)).unwrap();
        s.act(mover, Action::AcceptResignation).unwrap();
        s.next_game().unwrap();
        if let Decision::OpeningRoll = s.game().decision() {
            assert_eq!(s.display(false).dice, None);
        }
    }

    /// Plays a whole 1-point match bot against bot through the session, checking that the
    /// display and status are always consistent.
    #[test]
    fn whole_match_through_the_session() {
        let mut s = Session::new(setup(1, Opponent::Human)).unwrap();
        let mut search = Search::new(Arc::new(Nets::embedded()));
        let bot = Bot::new(Level::Beginner);
        for _ in 0..2000 {
            let d = s.display(false);
            assert_eq!(d.position, s.bottom_position());
            assert!(!s.status().is_empty());
            match s.next(false) {
                Next::MatchOver(winner) => {
                    assert!(s.status().contains(s.name(winner)));
                    assert!(s.log().last().unwrap().contains("match"));
                    return;
                }
                Next::GameOver => {
                    assert_eq!(s.next(true), Next::NextGame);
                    s.next_game().unwrap();
                }
                Next::NextGame => unreachable!("not asked to start games by itself"),
                Next::OpeningRoll => {
                    s.opening_roll().unwrap();
                }
                Next::HumanDecides(_) | Next::BotDecides(_) => {
                    let (player, action) = bot.choose(s.game(), &mut search).unwrap();
                    s.act(player, action).unwrap();
                }
                Next::EnterDice(_) | Next::AutoRoll(_) => unreachable!("random dice, clicks"),
            }
        }
        panic!("the match did not end");
    }
}
