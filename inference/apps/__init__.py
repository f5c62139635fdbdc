"""What is built on the play state: the reference bot, replays (one or many), scenario files, the
unit-testing helper, the replay viewer and the JSON-lines protocol.
"""
