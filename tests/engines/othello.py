"""A tiny Othello board for the fake engines of the match tests.

Squares are names a1..h8 (column letter, row digit, row 1 at the top).
"""

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
BLACK, WHITE = "black", "white"


def other(color):
    return WHITE if color == BLACK else BLACK


def square_name(col, row):
    return "abcdefgh"[col] + str(row + 1)


def parse_square(text):
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        return None
    return ("abcdefgh".index(text[0]), int(text[1]) - 1)


class Board:
    def __init__(self):
        self.cells = {}
        self.cells[(3, 3)] = WHITE
        self.cells[(4, 4)] = WHITE
        self.cells[(3, 4)] = BLACK
        self.cells[(4, 3)] = BLACK
        self.side = BLACK

    @staticmethod
    def from_ggf_board(text):
        """Reads `8 <64 squares> <side>` of a GGF BO tag."""
        parts = text.split()
        squares = "".join(parts[1:-1])
        board = Board()
        board.cells = {}
        for index, symbol in enumerate(squares):
            if symbol in "*xX":
                board.cells[(index % 8, index // 8)] = BLACK
            elif symbol in "oO0":
                board.cells[(index % 8, index // 8)] = WHITE
        board.side = BLACK if parts[-1] in "*xX" else WHITE
        return board

    def flips(self, square, color):
        if square in self.cells:
            return []
        result = []
        for dc, dr in DIRECTIONS:
            line = []
            col, row = square[0] + dc, square[1] + dr
            while 0 <= col < 8 and 0 <= row < 8 and self.cells.get((col, row)) == other(color):
                line.append((col, row))
                col, row = col + dc, row + dr
            if line and 0 <= col < 8 and 0 <= row < 8 and self.cells.get((col, row)) == color:
                result.extend(line)
        return result

    def legal_moves(self, color=None):
        color = color or self.side
        return [
            (col, row)
            for row in range(8)
            for col in range(8)
            if self.flips((col, row), color)
        ]

    def must_pass(self):
        return not self.legal_moves(self.side) and bool(self.legal_moves(other(self.side)))

    def play(self, square):
        """Plays a square (or None for a pass) for the side to move; False if illegal."""
        if square is None:
            if not self.must_pass():
                return False
            self.side = other(self.side)
            return True
        flipped = self.flips(square, self.side)
        if not flipped:
            return False
        self.cells[square] = self.side
        for cell in flipped:
            self.cells[cell] = self.side
        self.side = other(self.side)
        return True
