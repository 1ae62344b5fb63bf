; Bash (and sh, bats) definitions for the speky scanner (captures: see README.md).

; bats: @test "title" { ... } parses as a command named @test (its body follows as
; sibling statements): the command is the test, reported at @test.
((command
   name: (command_name (word) @anchor)
   .
   argument: [(string) (raw_string)] @name) @definition.test
 (#eq? @anchor "@test"))

(function_definition name: (word) @name) @definition.function

; Script-level variables: LIMIT=3, export NAME=x, readonly X=1.
(program (variable_assignment name: (variable_name) @name) @definition.variable)
(program (declaration_command (variable_assignment name: (variable_name) @name) @definition.variable))
