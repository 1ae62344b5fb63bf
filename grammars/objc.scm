; Objective-C definitions for the speky scanner (captures: see README.md), after c.scm
; (C functions, structs, macros). A method is named by its first selector part.

(class_interface . (identifier) @name) @definition.class
(class_implementation . (identifier) @name) @definition.class
(protocol_declaration . (identifier) @name) @definition.interface

(method_definition . (method_type) . (identifier) @name) @definition.method
(method_definition . (identifier) @name) @definition.method
(method_declaration . (method_type) . (identifier) @name) @definition.method
(method_declaration . (identifier) @name) @definition.method
(property_declaration (struct_declaration (struct_declarator (identifier) @name))) @definition.field
(property_declaration (struct_declaration (struct_declarator (pointer_declarator declarator: (identifier) @name)))) @definition.field

; The superclass, for XCTest (test* methods of an XCTestCase subclass).
(class_interface superclass: (identifier) @base) @definition.class
