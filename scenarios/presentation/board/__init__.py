"""The board of a scenario: an inline SVG picture (wide for screens, narrow for phones),
the board in words, and the texts of the cards on it, as of the question's era.

``render`` draws a game state; ``layout`` places the pieces, ``pieces`` draws panels and
cards, ``combat`` the arrows; ``words`` holds the translated words and sentences;
``measure`` escapes and measures text; ``question`` assembles what the question page
shows (both pictures, the card texts and the story with its cards as buttons).
"""

from scenarios.presentation.board.question import QuestionBoard, question_board
from scenarios.presentation.board.render import Board, render_board
from scenarios.presentation.board.words import player_label

__all__ = ["Board", "QuestionBoard", "player_label", "question_board", "render_board"]
