//! lancer: a chess-variant engine for Full Cavalry, 8-Piece Chess, Randomized 8-Piece
//! Chess, The Royal Standard and Lighthouse (plus chess and Chess960).

pub mod cli;
pub mod diagram;
pub mod engine;
pub mod eval;
pub mod progress;
pub mod protocol;
pub mod referee;
pub mod review;
pub mod rules;
pub mod search;
pub mod serve;
pub mod training;
pub mod version;
