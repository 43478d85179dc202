export function greet(name) {
    return 'Hello, ' + name + '! Hello, ' + name + '! Hello, ' + name + '! Hello, ' + name + '!';
}
