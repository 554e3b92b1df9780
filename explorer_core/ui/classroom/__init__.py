"""Class mode, part of the app's shell: one live lesson for a teacher and a room of students.

A teacher starts a class (a room code, a join link, a QR code); students join with a nickname;
the teacher asks the pages' "Predict first" questions as live polls, reveals them, brings
everyone to the current view, and runs a class experiment whose training results meet on one
leaderboard. The class lives in a database (`explorer_core.classroom.ClassStore`: SQLite by
default, PostgreSQL shared by replicas); this folder only draws it.

Read in this order:

1. `gate`      whether a session needs class mode at all (nothing else loads outside a class).
2. `seat`      this session's seat, the store, the links that start, join and resume a class.
3. `shell`     what app.py runs on every page in a class.
4. `home`      "Start a class" and "Join a class" on the home page.
5. `teacher`   the teacher's panel (a fragment refreshed every second); `ask` its button beside a
               page's question; `follow` the teacher's view as a target and a student taking it.
6. `student`   the student's bar (a fragment: one indexed query every 3 s).
7. `board`     the class experiment: start, assignment, results, leaderboard and chart; quiz
               points.
   `my_result` the student's own result on the Train page: place, score, the board.
8. `texts`     every text of class mode, in English and Chinese.
"""
